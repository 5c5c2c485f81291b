// Scenario loader, kind "moe"; see moe_scenario.h for the format.
#include "data/moe_scenario.h"

#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "engine/moe.h"
#include "engine/moe_plan.h"

namespace bw::data {

MoeScenario ParseMoeScenario(const nlohmann::json& doc, const std::string& file) {
  const JsonReader r(file);
  MoeScenario sc;
  sc.file = file;
  sc.title = r.OpenScenario(doc, "moe", 1, {"parameters", "router", "tokens", "deployment"});

  const auto& params = r.Require(doc, "", "parameters");
  r.ExpectObject(params, "/parameters");
  r.Fields(params, "/parameters", {"shared", "expert", "experts", "top_k"});
  sc.config.shared_params = r.Integer(r.Require(params, "/parameters", "shared"), "/parameters/shared", 0, kMaxMoeParams);
  sc.config.expert_params = r.Integer(r.Require(params, "/parameters", "expert"), "/parameters/expert", 0, kMaxMoeParams);
  sc.config.experts = r.Integer(r.Require(params, "/parameters", "experts"), "/parameters/experts", 1, kMaxMoeExperts);
  sc.config.top_k = r.Integer(r.Require(params, "/parameters", "top_k"), "/parameters/top_k", 1, kMaxMoeExperts);
  if (sc.config.top_k > sc.config.experts)
    r.Fail("/parameters/top_k", "top_k = " + std::to_string(sc.config.top_k) + " but there are only " +
                                    std::to_string(sc.config.experts) + " experts");

  const auto& router = r.Require(doc, "", "router");
  r.ExpectObject(router, "/router");
  r.Fields(router, "/router", {"logits", "capacity", "capacity_factor"});
  const auto& logits = r.Require(router, "/router", "logits");
  r.ExpectArray(logits, "/router/logits", 1);
  const auto T = static_cast<std::int64_t>(logits.size());
  if (T > kMaxMoeTokens)
    r.Fail("/router/logits", std::to_string(T) + " tokens; the limit is " + std::to_string(kMaxMoeTokens));
  const std::int64_t E = sc.config.experts;
  for (std::int64_t t = 0; t < T; ++t) {  // shapes first, then allocate
    const std::string rp = JsonPath("/router/logits", static_cast<size_t>(t));
    r.ExpectArray(logits[t], rp);
    if (static_cast<std::int64_t>(logits[t].size()) != E)
      r.Fail(rp, "row has " + std::to_string(logits[t].size()) + " logits; /parameters/experts is " + std::to_string(E));
  }
  sc.router.logits.resize(T, E);
  for (std::int64_t t = 0; t < T; ++t)
    for (std::int64_t e = 0; e < E; ++e)
      sc.router.logits(t, e) = r.FiniteNumber(
          logits[t][e], JsonPath(JsonPath("/router/logits", static_cast<size_t>(t)), static_cast<size_t>(e)));
  sc.router.top_k = sc.config.top_k;

  const bool has_cap = router.contains("capacity"), has_factor = router.contains("capacity_factor");
  if (has_cap && has_factor) r.Fail("/router", "give \"capacity\" or \"capacity_factor\", not both");
  if (has_cap) sc.router.capacity = r.Integer(router["capacity"], "/router/capacity", 0, kMaxMoeTokens);
  if (has_factor) {
    const auto& f = router["capacity_factor"];
    r.ExpectArray(f, "/router/capacity_factor", 2);
    if (f.size() != 2) r.Fail("/router/capacity_factor", "expected [numerator, denominator]");
    const auto num = r.Integer(f[0], "/router/capacity_factor/0", 0, 1000000);
    const auto den = r.Integer(f[1], "/router/capacity_factor/1", 1, 1000000);
    sc.capacity_factor = {num, den};
    sc.router.capacity = engine::CapacityFromFactor(T, E, sc.config.top_k, num, den);
  }

  if (doc.contains("tokens")) {
    const auto& labels = doc["tokens"];
    r.ExpectArray(labels, "/tokens");
    if (static_cast<std::int64_t>(labels.size()) != T)
      r.Fail("/tokens", "has " + std::to_string(labels.size()) + " labels but /router/logits has " + std::to_string(T) + " rows");
    for (size_t i = 0; i < labels.size(); ++i) sc.token_labels.push_back(r.String(labels[i], JsonPath("/tokens", i)));
  } else {
    for (std::int64_t t = 0; t < T; ++t) sc.token_labels.push_back("t" + std::to_string(t + 1));
  }
  if (doc.contains("deployment")) {
    const auto& d = doc["deployment"];
    const std::string dp = "/deployment";
    r.ExpectObject(d, dp);
    r.Fields(d, dp, {"hidden", "activation_bytes", "weight_bits", "quantised_bits", "devices", "training_tokens"});
    MoeDeployment dep;
    dep.hidden = r.Integer(r.Require(d, dp, "hidden"), dp + "/hidden", 1, kMaxMoeHidden);
    dep.activation_bytes = r.Integer(r.Require(d, dp, "activation_bytes"), dp + "/activation_bytes", 1, 8);
    dep.weight_bits = r.Integer(r.Require(d, dp, "weight_bits"), dp + "/weight_bits", 1, 64);
    if (d.contains("quantised_bits")) dep.quantised_bits = r.Integer(d["quantised_bits"], dp + "/quantised_bits", 1, 64);
    dep.devices = r.Integer(r.Require(d, dp, "devices"), dp + "/devices", 1, kMaxMoeExperts);
    if (dep.devices > E)
      r.Fail(dp + "/devices", std::to_string(dep.devices) + " devices for " + std::to_string(E) +
                                  " experts: every device must hold at least one expert");
    dep.training_tokens = r.Integer(r.Require(d, dp, "training_tokens"), dp + "/training_tokens", 1, kMaxTrainingTokens);
    sc.deployment = dep;
  }
  // The engine's 64-bit products (parameter counts, bytes, FLOPs), checked here so that an overflow
  // names the file's field; the app said "(document): … overflows 64 bits" (issue 31, item 12).
  const auto check = [&](const std::string& path, const auto& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      r.Fail(path, e.what());
    }
  };
  check("/parameters", [&] { (void)engine::CountParameters(sc.config); });
  if (const auto& d = sc.deployment) {
    check("/deployment/weight_bits", [&] { (void)engine::PlaceCpuGpu(sc.config, d->hidden, d->activation_bytes, d->weight_bits); });
    if (d->quantised_bits)
      check("/deployment/quantised_bits", [&] { (void)engine::PlaceCpuGpu(sc.config, d->hidden, d->activation_bytes, *d->quantised_bits); });
    check("/deployment/training_tokens", [&] { (void)engine::EstimateTrainingCompute(engine::CountParameters(sc.config), d->training_tokens); });
  }
  return sc;
}

}  // namespace bw::data
