// Scenario file v2 loader (kind "attention"); see attention_scenario.h for the format. Every matrix
// is size-checked (rows, row length, total) against the limits before it is allocated, and every
// error names the JSON Pointer of the offending value.
#include "data/attention_scenario.h"

#include <nlohmann/json.hpp>

#include "data/json_file.h"

namespace bw::data {
namespace {

using engine::AttentionMatrix;
using I64 = std::int64_t;

// A matrix given as an array of rows. `cols` fixes the row length when known (−1: taken from row 0);
// with no rows the result is (0, max(cols, 0)).
AttentionMatrix ParseMatrix(const JsonReader& r, const nlohmann::json& v, const std::string& path, I64 cols,
                            const char* row_meaning, const char* col_meaning, I64 max_cols = kMaxAttentionDim) {
  r.ExpectArray(v, path);
  const I64 rows = static_cast<I64>(v.size());
  if (rows > kMaxAttentionRows)
    r.Fail(path, std::to_string(rows) + " rows (" + row_meaning + "); the limit is " + std::to_string(kMaxAttentionRows));
  if (rows == 0) return AttentionMatrix(0, std::max<I64>(cols, 0));
  r.ExpectArray(v[0], JsonPath(path, 0));
  if (cols < 0) cols = static_cast<I64>(v[0].size());
  if (cols > max_cols)
    r.Fail(JsonPath(path, 0), std::to_string(cols) + " columns (" + col_meaning + "); the limit is " +
                                  std::to_string(max_cols));
  if (rows * cols > kMaxAttentionElements)
    r.Fail(path, std::to_string(rows) + " x " + std::to_string(cols) + " = " + std::to_string(rows * cols) +
                     " numbers; the limit is " + std::to_string(kMaxAttentionElements));
  for (I64 i = 0; i < rows; ++i) {  // shapes first, then allocate
    const std::string rp = JsonPath(path, static_cast<size_t>(i));
    r.ExpectArray(v[i], rp);
    if (static_cast<I64>(v[i].size()) != cols)
      r.Fail(rp, "row has " + std::to_string(v[i].size()) + " numbers, expected " + std::to_string(cols) + " (" +
                     col_meaning + ")");
  }
  AttentionMatrix m(rows, cols);
  for (I64 i = 0; i < rows; ++i)
    for (I64 j = 0; j < cols; ++j)
      m(i, j) = r.FiniteNumber(v[i][j], JsonPath(JsonPath(path, static_cast<size_t>(i)), static_cast<size_t>(j)));
  return m;
}

std::uint8_t Bit(const JsonReader& r, const nlohmann::json& v, const std::string& path) {
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  return static_cast<std::uint8_t>(r.Integer(v, path, 0, 1));
}

engine::Mask ParseMask(const JsonReader& r, const nlohmann::json& v, I64 n_q, I64 n_k) {
  const std::string path = "/mask";
  std::string kind;
  if (v.is_string()) {
    kind = v.get<std::string>();
    if (kind != "none" && kind != "causal")
      r.Fail(path, "a mask given as a string must be \"none\" or \"causal\" (found \"" + kind +
                       "\"); key_padding and explicit masks are objects with \"keep\"");
  } else {
    r.ExpectObject(v, path);
    kind = r.String(r.Require(v, path, "kind"), path + "/kind");
    // Each kind has its own keys: {"kind": "causal", "keep": …} is refused, not run as causal alone.
    if (kind == "causal") r.Fields(v, path, {"kind", "alignment"});
    else if (kind == "key_padding" || kind == "explicit") r.Fields(v, path, {"kind", "keep"});
  }
  if (kind == "none") return engine::Mask::None();
  if (kind == "causal") {
    engine::CausalAlignment a = engine::kDefaultCausalAlignment;
    if (v.is_object() && v.contains("alignment")) {
      const auto s = r.String(v["alignment"], path + "/alignment");
      if (s == "top_left") a = engine::CausalAlignment::kTopLeft;
      else if (s == "bottom_right") a = engine::CausalAlignment::kBottomRight;
      else r.Fail(path + "/alignment", "expected \"top_left\" (PyTorch SDPA, the default) or \"bottom_right\" (flash-attn >= 2.1), found \"" + s + "\"");
    }
    return engine::Mask::Causal(a);
  }
  if (kind == "key_padding") {
    const auto& keep = r.Require(v, path, "keep");
    const std::string kp = path + "/keep";
    r.ExpectArray(keep, kp);
    if (static_cast<I64>(keep.size()) != n_k)
      r.Fail(kp, "has " + std::to_string(keep.size()) + " entries; there are N_k = " + std::to_string(n_k) + " keys");
    std::vector<std::uint8_t> bits(keep.size());
    for (size_t i = 0; i < keep.size(); ++i) bits[i] = Bit(r, keep[i], JsonPath(kp, i));
    return engine::Mask::KeyPadding(std::move(bits));
  }
  if (kind == "explicit") {
    const auto& keep = r.Require(v, path, "keep");
    const std::string kp = path + "/keep";
    r.ExpectArray(keep, kp);
    if (static_cast<I64>(keep.size()) != n_q)
      r.Fail(kp, "has " + std::to_string(keep.size()) + " rows; there are N_q = " + std::to_string(n_q) + " queries");
    for (size_t i = 0; i < keep.size(); ++i) {
      r.ExpectArray(keep[i], JsonPath(kp, i));
      if (static_cast<I64>(keep[i].size()) != n_k)
        r.Fail(JsonPath(kp, i), "has " + std::to_string(keep[i].size()) + " entries; there are N_k = " +
                                    std::to_string(n_k) + " keys");
    }
    engine::AttentionMaskMatrix m(n_q, n_k);
    for (I64 i = 0; i < n_q; ++i)
      for (I64 j = 0; j < n_k; ++j)
        m(i, j) = Bit(r, keep[i][j], JsonPath(JsonPath(kp, static_cast<size_t>(i)), static_cast<size_t>(j)));
    return engine::Mask::Explicit(std::move(m));
  }
  r.Fail(path + "/kind", "expected \"none\", \"causal\", \"key_padding\" or \"explicit\", found \"" + kind + "\"");
}

}  // namespace

AttentionScenario ParseAttentionScenario(const nlohmann::json& doc, const std::string& file) {
  JsonReader r(file);
  AttentionScenario sc;
  sc.file = file;
  sc.title = r.OpenScenario(doc, "attention", 2,
                            {"Q", "K", "V", "logits", "scale", "mask", "tiles", "sram_elements", "order", "precision", "merge",
                             "backward", "dO"});

  // Q, K, V — or logits and V.
  engine::AttentionProblem& p = sc.problem;
  const bool has_logits = doc.contains("logits");
  if (has_logits && (doc.contains("Q") || doc.contains("K")))
    r.Fail("/logits", "give either \"logits\" or \"Q\" and \"K\", not both");
  if (has_logits) {
    sc.from_logits = true;
    const auto& vv = r.Require(doc, "", "V");
    const AttentionMatrix S = ParseMatrix(r, doc["logits"], "/logits", -1, "N_q", "N_k keys", kMaxLogitKeys);
    r.ExpectArray(vv, "/V");
    const I64 n_k = S.rows() > 0 ? S.cols() : static_cast<I64>(vv.size());
    if (n_k > kMaxLogitKeys)
      r.Fail("/V", std::to_string(n_k) + " keys given with logits; the limit is " + std::to_string(kMaxLogitKeys));
    if (static_cast<I64>(vv.size()) != n_k)
      r.Fail("/V", "has " + std::to_string(vv.size()) + " rows; the logits have N_k = " + std::to_string(n_k) + " columns");
    const AttentionMatrix V = ParseMatrix(r, vv, "/V", -1, "N_k", "d_v");
    p = engine::AttentionProblem::FromLogits(S.rows() > 0 ? S : AttentionMatrix(0, n_k), V);
  } else {
    const auto& qv = r.Require(doc, "", "Q");
    const auto& kv = r.Require(doc, "", "K");
    const auto& vv = r.Require(doc, "", "V");
    p.Q = ParseMatrix(r, qv, "/Q", -1, "N_q", "d");
    p.K = ParseMatrix(r, kv, "/K", p.Q.rows() > 0 ? p.Q.cols() : -1, "N_k", "d, as in Q");
    if (p.Q.rows() == 0) p.Q.resize(0, p.K.cols());
    r.ExpectArray(vv, "/V");
    if (static_cast<I64>(vv.size()) != p.K.rows())
      r.Fail("/V", "has " + std::to_string(vv.size()) + " rows; K has N_k = " + std::to_string(p.K.rows()));
    p.V = ParseMatrix(r, vv, "/V", -1, "N_k", "d_v");
  }
  // Zero-width problems teach nothing and reach Eigen's row()/block() of 0-column matrices all over
  // the engine and view (undefined behaviour, found by fuzz_attention_v2 under UBSan): refused here.
  if (p.n_k() == 0) r.Fail(has_logits ? "/logits" : "/K", "no keys (N_k = 0): attention needs at least one key");
  if (p.d() == 0) r.Fail(p.n_q() > 0 ? "/Q/0" : "/K/0", "rows are empty (d = 0): queries and keys need at least one number");
  if (p.d_v() == 0) r.Fail("/V/0", "rows are empty (d_v = 0): values need at least one number");
  if (p.n_q() * p.n_k() > kMaxScoreElements)
    r.Fail(has_logits ? "/logits" : "/K", "N_q x N_k = " + std::to_string(p.n_q()) + " x " + std::to_string(p.n_k()) + " = " +
                                             std::to_string(p.n_q() * p.n_k()) + " scores (S and P of the reference run); the limit is " +
                                             std::to_string(kMaxScoreElements));
  if (MultiplyAdds(p) > kMaxMultiplyAdds)
    r.Fail("/V", "N_q x N_k x (d + d_v) = " + std::to_string(p.n_q()) + " x " + std::to_string(p.n_k()) + " x (" + std::to_string(p.d()) +
                     " + " + std::to_string(p.d_v()) + ") = " + std::to_string(MultiplyAdds(p)) +
                     " multiply-adds per pass; the limit is " + std::to_string(kMaxMultiplyAdds) +
                     " (the app makes up to four passes when it opens the file)");
  if (doc.contains("scale")) {
    const double s = r.FiniteNumber(doc["scale"], "/scale");
    p.scale = s;
  }
  if (doc.contains("mask")) p.mask = ParseMask(r, doc["mask"], p.n_q(), p.n_k());

  // How to run it.
  const std::string order = doc.contains("order") ? r.String(doc["order"], "/order") : "flash2";
  if (order == "reference") sc.order = engine::Algorithm::kReference;
  else if (order == "flash2") sc.order = engine::Algorithm::kFlash2;
  else if (order == "flash1") sc.order = engine::Algorithm::kFlash1;
  else r.Fail("/order", "expected \"reference\", \"flash2\" or \"flash1\", found \"" + order + "\"");

  if (doc.contains("precision")) {
    const auto s = r.String(doc["precision"], "/precision");
    if (s == "double") sc.options.precision = engine::Precision::kDouble;
    else if (s == "float") sc.options.precision = engine::Precision::kFloat;
    else r.Fail("/precision", "expected \"double\" or \"float\", found \"" + s + "\"");
  }
  if (doc.contains("merge")) {
    const auto s = r.String(doc["merge"], "/merge");
    bool found = false;
    for (engine::MergeVariant v : engine::kAllMergeVariants)
      if (s == engine::ToString(v)) {
        sc.options.merge = v;
        found = true;
      }
    if (!found) r.Fail("/merge", "unknown merge variant \"" + s + "\" (correct, no_rescale, rescale_l_only, rescale_u_only, average_of_block_outputs, inverted_factor_on_u)");
    if (sc.options.merge != engine::MergeVariant::kCorrect && sc.order != engine::Algorithm::kFlash2)
      r.Fail("/merge", "wrong-merge variants apply to the flash2 order only");
  }

  const bool has_tiles = doc.contains("tiles"), has_sram = doc.contains("sram_elements");
  if (has_tiles && has_sram) r.Fail("/sram_elements", "give either \"tiles\" or \"sram_elements\", not both");
  if (has_tiles) {
    const auto& t = doc["tiles"];
    r.ExpectObject(t, "/tiles");
    r.Fields(t, "/tiles", {"B_r", "B_c"});
    auto block = [&](const char* key) {
      const std::string path = JsonPath("/tiles", key);
      const auto& v = r.Require(t, "/tiles", key);
      if (v.is_number_integer() && v.get<I64>() < 1) r.Fail(path, "block size must be at least 1, found " + v.dump());
      return r.Integer(v, path, 1, kMaxAttentionRows);
    };
    sc.options.tiles = {block("B_r"), block("B_c")};
  } else if (has_sram) {
    const I64 M = r.Integer(doc["sram_elements"], "/sram_elements", 1, kMaxSramElements);
    if (p.d() < 1) r.Fail("/sram_elements", "tile sizes from M need d >= 1");
    sc.derivation = engine::DeriveTileSizes(M, p.d());
    sc.options.tiles = sc.derivation->tiles;
  } else if (sc.order != engine::Algorithm::kReference) {
    r.Fail("/tiles", "required field is missing: the " + order + " order needs \"tiles\" {\"B_r\", \"B_c\"} or \"sram_elements\"");
  }

  if (sc.options.tiles.B_r > 0 && sc.options.tiles.B_c > 0) {
    const I64 t_r = (p.n_q() + sc.options.tiles.B_r - 1) / sc.options.tiles.B_r;
    const I64 t_c = (p.n_k() + sc.options.tiles.B_c - 1) / sc.options.tiles.B_c;
    if (t_r * t_c > kMaxTiles)
      r.Fail(has_tiles ? "/tiles" : "/sram_elements",
             "T_r x T_c = " + std::to_string(t_r) + " x " + std::to_string(t_c) + " = " + std::to_string(t_r * t_c) +
                 " tiles, each a step of the trace; the limit is " + std::to_string(kMaxTiles) + " (use larger blocks)");
  }
  if (doc.contains("backward")) {
    if (!doc["backward"].is_boolean()) r.Fail("/backward", "expected true or false");
    sc.backward = doc["backward"].get<bool>();
    if (sc.backward && has_logits)
      r.Fail("/backward", "needs Q and K: with logits given there is no dQ or dK to compute (remove it or give Q and K)");
  }
  if (doc.contains("dO")) {
    const auto& dv = doc["dO"];
    r.ExpectArray(dv, "/dO");
    if (static_cast<I64>(dv.size()) != p.n_q())
      r.Fail("/dO", "has " + std::to_string(dv.size()) + " rows; there are N_q = " + std::to_string(p.n_q()) + " queries");
    sc.dO = ParseMatrix(r, dv, "/dO", p.d_v(), "N_q", "d_v, as in V");
    sc.dO_given = true;
  } else {
    sc.dO = AttentionMatrix::Ones(p.n_q(), p.d_v());
  }

  try {
    engine::Validate(p);
  } catch (const engine::ValidationError& e) {
    r.Fail("", e.what());
  }
  return sc;
}

AttentionScenario LoadAttentionScenario(const std::filesystem::path& path) {
  return ParseAttentionScenario(ReadJsonFile(path), path.string());
}

}  // namespace bw::data
