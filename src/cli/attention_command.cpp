// `blockwise-cli attention`: scenario file v2 → engine run → counters beside formulas, trace, output.
// See attention_command.h for the options. HBM counters are printed in ELEMENTS with the byte count
// (elements × element size) beside them; SRAM peak and scratch are BYTES.
#include "cli/attention_command.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/numerics_report.h"
#include "data/atomic_write.h"
#include "data/attention_scenario.h"
#include "data/json_file.h"
#include "engine/attention.h"
#include "engine/attention_formulas.h"
#include "view/attention_runs.h"

namespace bw::cli {
namespace {

using engine::AttentionResult;
using engine::BackwardResult;
using engine::Counters;
using engine::CounterFormula;
using engine::Tensor;
using nlohmann::json;

struct Options {
  std::string file, trace_json, counters_csv;
  bool as_json = false;
  bool strict = false;
  int trace_limit = 200;
  int workers = 0;  // engine::RunOptions::workers for the FA-2 order
};

// The runs the CLI prints: the scenario's order and the backward it stands for, from the same code
// the app's AttentionModel uses (view/attention_runs.h).
struct Runs {
  AttentionResult forward;
  std::optional<BackwardResult> backward;
  std::optional<CounterFormula> forward_formula, backward_formula;
  engine::CompareReport vs_reference;
};

Runs RunScenario(const data::AttentionScenario& sc, bool record_trace, int workers) {
  view::AttentionRuns all =
      view::RunAttentionScenario(sc, {.record_trace = record_trace, .side_runs = false, .workers = workers});
  Runs r;
  if (const BackwardResult* b = all.Backward()) {
    r.backward = *b;
    r.backward_formula = all.BackwardFormula();
  }
  r.forward = std::move(all.run);
  r.forward_formula = std::move(all.formula);
  r.vs_reference = all.check;
  return r;
}

json MatrixJson(const Eigen::Ref<const engine::AttentionMatrix>& m) {
  json a = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(data::NumberJson(m(i, j)));  // −∞ as "-inf", never null
    a.push_back(row);
  }
  return a;
}

json VectorJson(const Eigen::VectorXd& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(data::NumberJson(v[i]));
  return a;
}

json CountersJson(const Counters& c, const std::optional<CounterFormula>& f) {
  json j;
  j["element_bytes"] = c.element_bytes;
  json reads = json::object(), writes = json::object();
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const char* name = engine::ToString(Tensor(t));
    if (c.hbm_read_elements[t] || (f && f->counters.hbm_read_elements[t])) reads[name] = c.hbm_read_elements[t];
    if (c.hbm_write_elements[t] || (f && f->counters.hbm_write_elements[t])) writes[name] = c.hbm_write_elements[t];
  }
  j["hbm_read_elements"] = reads;
  j["hbm_write_elements"] = writes;
  j["hbm_total_elements"] = c.TotalHbmElements();
  j["hbm_total_bytes"] = c.TotalHbmBytes();
  j["sram_peak_bytes"] = c.sram_peak_bytes;
  j["hbm_scratch_bytes"] = c.hbm_scratch_bytes;
  j["matmul_flops"] = c.matmul_flops;
  j["exp_count"] = c.exp_count;
  j["tiles_computed"] = c.tiles_computed;
  j["tiles_skipped"] = c.tiles_skipped;
  if (f) {
    j["formula"] = f->lines;
    j["formula_equals_measured"] = f->counters == c;
  } else {
    j["formula"] = json::array({"no closed form: this mask skips data-dependent tiles"});
  }
  return j;
}

void PrintCounters(std::ostream& os, const char* title, const Counters& c, const std::optional<CounterFormula>& f) {
  os << title << "  (HBM traffic in elements; bytes = elements x " << c.element_bytes << ")\n";
  os << "  " << std::left << std::setw(8) << "tensor" << std::right << std::setw(12) << "reads" << std::setw(12)
     << "writes" << std::setw(14) << "bytes" << "   formula\n";
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const auto r = c.hbm_read_elements[t], w = c.hbm_write_elements[t];
    const bool in_formula = f && (f->counters.hbm_read_elements[t] || f->counters.hbm_write_elements[t]);
    if (!r && !w && !in_formula) continue;
    std::string formula;
    if (f) {
      formula = f->read_formula[t];
      if (!f->write_formula[t].empty()) formula += (formula.empty() ? "" : "; ") + f->write_formula[t];
    }
    os << "  " << std::left << std::setw(8) << engine::ToString(Tensor(t)) << std::right << std::setw(12) << r
       << std::setw(12) << w << std::setw(14) << (r + w) * c.element_bytes << "   " << formula << "\n";
  }
  os << "  HBM total: " << c.TotalHbmElements() << " elements, " << c.TotalHbmBytes() << " bytes\n"
     << "  SRAM peak: " << c.sram_peak_bytes << " bytes;  HBM scratch: " << c.hbm_scratch_bytes << " bytes\n"
     << "  matmul FLOPs: " << c.matmul_flops << ";  exp count: " << c.exp_count << ";  tiles computed: "
     << c.tiles_computed << ", skipped: " << c.tiles_skipped << "\n";
  if (f) {
    os << "  formulas (" << (f->counters == c ? "all equal to the measured counters" : "DIFFER from the measured counters")
       << "):\n";
    for (const auto& line : f->lines) os << "    " << line << "\n";
  } else {
    os << "  formulas: no closed form (this mask skips data-dependent tiles)\n";
  }
}

void PrintMatrix(std::ostream& os, const char* name, const engine::AttentionMatrix& m,
                 const std::vector<std::uint8_t>* flags = nullptr) {
  constexpr Eigen::Index kMax = 8;
  os << name << " (" << m.rows() << " x " << m.cols() << ")" << (m.rows() > kMax || m.cols() > kMax ? ", first 8 x 8" : "") << ":\n";
  os << std::setprecision(6);
  for (Eigen::Index i = 0; i < std::min(m.rows(), kMax); ++i) {
    os << "  [";
    for (Eigen::Index j = 0; j < std::min(m.cols(), kMax); ++j) {
      os << (j ? ", " : "") << std::setw(11);
      if (std::isnan(m(i, j))) os << "NaN";  // not the C library's "-nan": one spelling everywhere
      else os << m(i, j);
    }
    os << "]";
    if (flags && (*flags)[static_cast<size_t>(i)]) os << "  <- fully masked row (the mask allows no key): output 0, flagged";
    os << "\n";
  }
}

std::string StateText(const engine::BlockState& s) {
  std::ostringstream os;
  os << std::setprecision(6) << "m = [";
  for (Eigen::Index a = 0; a < s.m.size(); ++a) os << (a ? ", " : "") << s.m[a];
  os << "]  l = [";
  for (Eigen::Index a = 0; a < s.l.size(); ++a) os << (a ? ", " : "") << s.l[a];
  os << "]  e^(m-m') = [";
  for (Eigen::Index a = 0; a < s.alpha.size(); ++a) os << (a ? ", " : "") << s.alpha[a];
  os << "]";
  return os.str();
}

bool SmallState(const data::AttentionScenario& sc) {
  return sc.options.tiles.B_r * sc.problem.d_v() <= 4096;
}

json TraceJson(const data::AttentionScenario& sc, const AttentionResult& r) {
  json j;
  j["file"] = sc.file;
  j["algorithm"] = engine::ToString(r.algorithm);
  j["precision"] = engine::ToString(r.precision);
  j["B_r"] = r.tiles.B_r;
  j["B_c"] = r.tiles.B_c;
  j["units"] = "elements moved per event in 'elements'; 'sram_bytes' and cumulative 'hbm_bytes' in bytes";
  json events = json::array();
  const bool with_state = SmallState(sc) && r.trace.size() <= 200000;
  Counters running;
  running.element_bytes = r.counters.element_bytes;
  for (std::size_t e = 0; e < r.trace.size(); ++e) {
    const auto& ev = r.trace[e];
    engine::ApplyEvent(ev, running);
    json je = {{"event", e + 1},  // 1-based, as "i" and "j" (0 = none)
               {"kind", engine::ToString(ev.kind)},
               {"text", engine::Describe(ev, r.trace.logits_given)},
               {"i", ev.i + 1},
               {"j", ev.j + 1},
               {"step", ev.step},
               {"elements", ev.elements},
               {"flops", ev.flops},
               {"exps", ev.exps},
               {"sram_bytes", ev.sram_bytes}};
    if (ev.tensor != Tensor::kCount) je["tensor"] = engine::ToString(ev.tensor);
    je["cumulative"] = {{"hbm_elements", running.TotalHbmElements()}, {"hbm_bytes", running.TotalHbmBytes()},
                        {"matmul_flops", running.matmul_flops}, {"exp_count", running.exp_count},
                        {"tiles_computed", running.tiles_computed}, {"tiles_skipped", running.tiles_skipped}};
    if (with_state && ev.kind == engine::EventKind::kUpdateMLU) {
      const auto s = r.trace.StateAt(sc.problem, e);
      je["state"] = {{"rows", {s.row_begin, s.row_end}}, {"m", VectorJson(s.m)}, {"l", VectorJson(s.l)},
                     {"rescale", VectorJson(s.alpha)}, {"u", MatrixJson(s.u.cast<double>())}};
    }
    events.push_back(std::move(je));
  }
  j["events"] = std::move(events);
  return j;
}

// An output file: a regular one (or a new one) written whole and atomically (data::WriteFileAtomically):
// a full disk leaves the old file as it was and fails the command with the reason, never a file cut at
// 4 KiB and exit 0 (issue 31). A device or pipe named on purpose (/dev/stdout, bash's >(…)) is written
// straight, and its write checked (/dev/full fails with its reason).
void WriteOutputFile(const std::string& path, const std::string& bytes) {
  // (/dev/stdout redirected to a file is a link to a regular file: replacing it would replace the link
  // in /dev, and the shell's output would go to the unlinked file. Anything under /dev or /proc is
  // written straight.)
  struct stat st {};
  const bool system_path = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
  if (!system_path && (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
    return data::WriteFileAtomically(path, bytes);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = std::fflush(f) == 0 && ok;
  const int err = errno;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) throw std::runtime_error(path + ": write failed: " + std::strerror(err ? err : errno));
}

void WriteCountersCsv(const std::string& path, const Runs& runs) {
  std::ostringstream out;
  out << "algorithm,counter,tensor,elements,bytes,formula_elements,formula\n";
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  auto emit = [&](engine::Algorithm a, const Counters& c, const std::optional<CounterFormula>& f) {
    const std::string alg = engine::ToString(a);
    for (int t = 0; t < engine::kTensorCount; ++t) {
      for (int rw = 0; rw < 2; ++rw) {
        const auto v = rw == 0 ? c.hbm_read_elements[t] : c.hbm_write_elements[t];
        const auto fv = f ? (rw == 0 ? f->counters.hbm_read_elements[t] : f->counters.hbm_write_elements[t]) : 0;
        if (!v && !fv) continue;
        out << alg << ',' << (rw == 0 ? "hbm_read" : "hbm_write") << ',' << engine::ToString(Tensor(t)) << ',' << v << ','
            << v * c.element_bytes << ',' << (f ? std::to_string(fv) : "") << ','
            << quote(f ? (rw == 0 ? f->read_formula[t] : f->write_formula[t]) : "") << '\n';
      }
    }
    auto scalar = [&](const char* name, std::int64_t v, std::int64_t fv, bool bytes) {
      out << alg << ',' << name << ",," << (bytes ? "" : std::to_string(v)) << ',' << (bytes ? std::to_string(v) : "") << ','
          << (f ? std::to_string(fv) : "") << ",\n";
    };
    const Counters z;
    const Counters& fc = f ? f->counters : z;
    scalar("hbm_total", c.TotalHbmElements(), fc.TotalHbmElements(), false);
    scalar("sram_peak", c.sram_peak_bytes, fc.sram_peak_bytes, true);
    scalar("hbm_scratch", c.hbm_scratch_bytes, fc.hbm_scratch_bytes, true);
    scalar("matmul_flops", c.matmul_flops, fc.matmul_flops, false);
    scalar("exp_count", c.exp_count, fc.exp_count, false);
    scalar("tiles_computed", c.tiles_computed, fc.tiles_computed, false);
    scalar("tiles_skipped", c.tiles_skipped, fc.tiles_skipped, false);
  };
  emit(runs.forward.algorithm, runs.forward.counters, runs.forward_formula);
  if (runs.backward) emit(runs.backward->algorithm, runs.backward->counters, runs.backward_formula);
  WriteOutputFile(path, out.str());
}

void PrintText(const data::AttentionScenario& sc, const Runs& runs, int trace_limit) {
  const auto& p = sc.problem;
  const auto& r = runs.forward;
  std::cout << sc.file << (sc.title.en.empty() ? "" : "  -- " + sc.title.en) << "\n"
            << "problem: N_q = " << p.n_q() << ", N_k = " << p.n_k() << ", d = " << p.d() << ", d_v = " << p.d_v()
            << ", scale = " << p.EffectiveScale() << (sc.from_logits ? " (logits given: Q = logits, K = I)" : "")
            << ", mask = " << engine::ToString(p.mask.kind)
            << (p.mask.kind == engine::MaskKind::kCausal ? std::string(" (") + engine::ToString(p.mask.alignment) + ")" : "")
            << "\n"
            << "run: " << engine::ToString(r.algorithm) << ", " << engine::ToString(r.precision);
  if (r.algorithm != engine::Algorithm::kReference)
    std::cout << ", B_r = " << r.tiles.B_r << ", B_c = " << r.tiles.B_c << " (T_r = " << engine::CeilDiv(p.n_q(), r.tiles.B_r)
              << ", T_c = " << engine::CeilDiv(p.n_k(), r.tiles.B_c) << ")";
  if (r.algorithm == engine::Algorithm::kFlash2)
    std::cout << "\nparallel: " << engine::ParallelUnits(r.algorithm, p.n_q(), r.tiles)
              << " independent Q blocks (one worker each, no shared writes); the FA-1 order has "
              << engine::ParallelUnits(engine::Algorithm::kFlash1, p.n_q(), r.tiles)
              << " (every K/V step rewrites all of O, l, m)";
  if (r.merge != engine::MergeVariant::kCorrect) std::cout << ", WRONG merge: " << engine::ToString(r.merge);
  std::cout << "\n";
  if (sc.derivation)
    for (const auto& s : sc.derivation->steps) std::cout << "  " << s << "\n";
  std::cout << "\n";
  PrintCounters(std::cout, "counters", r.counters, runs.forward_formula);

  std::cout << "\ntrace: " << r.trace.size() << " events";
  if (static_cast<std::int64_t>(r.trace.size()) > trace_limit) std::cout << " (first " << trace_limit << " shown; --trace-limit)";
  std::cout << "\n";
  Counters running;
  running.element_bytes = r.counters.element_bytes;
  for (std::size_t e = 0; e < r.trace.size(); ++e) {
    engine::ApplyEvent(r.trace[e], running);
    if (static_cast<std::int64_t>(e) >= trace_limit) continue;
    std::cout << "  #" << std::left << std::setw(5) << e + 1 << std::setw(60) << engine::Describe(r.trace[e], r.trace.logits_given) << std::right
              << " HBM " << running.TotalHbmElements() << " el";
    if (r.trace[e].kind == engine::EventKind::kUpdateMLU && SmallState(sc))
      std::cout << "\n        " << StateText(r.trace.StateAt(p, e));
    std::cout << "\n";
  }
  std::cout << "\n";
  PrintMatrix(std::cout, "O", r.O, &r.row_fully_masked);
  std::cout << "against the reference (double; tolerance " << (r.precision == engine::Precision::kDouble ? "1e-12" : "1e-5")
            << " x (1 + |O|)): " << (runs.vs_reference.ok() ? "agrees" : "DIFFERS") << "; " << runs.vs_reference.Summary() << "\n";
  PrintNumerics(std::cout, r.numerics, view::InputPaths(sc));
  if (runs.backward) {
    std::cout << "\nbackward: " << engine::ToString(runs.backward->algorithm) << " with dO "
              << (sc.dO_given ? "from the file" : "= all ones") << "\n";
    PrintCounters(std::cout, "backward counters", runs.backward->counters, runs.backward_formula);
    PrintMatrix(std::cout, "dQ", runs.backward->dQ);
    PrintMatrix(std::cout, "dK", runs.backward->dK);
    PrintMatrix(std::cout, "dV", runs.backward->dV);
  }
}

json AllJson(const data::AttentionScenario& sc, const Runs& runs) {
  const auto& r = runs.forward;
  json j;
  j["file"] = sc.file;
  j["problem"] = {{"N_q", sc.problem.n_q()}, {"N_k", sc.problem.n_k()}, {"d", sc.problem.d()}, {"d_v", sc.problem.d_v()},
                  {"scale", sc.problem.EffectiveScale()}, {"mask", engine::ToString(sc.problem.mask.kind)},
                  {"causal_alignment", engine::ToString(sc.problem.mask.alignment)}};
  j["run"] = {{"algorithm", engine::ToString(r.algorithm)}, {"precision", engine::ToString(r.precision)},
              {"merge", engine::ToString(r.merge)}, {"B_r", r.tiles.B_r}, {"B_c", r.tiles.B_c}};
  if (sc.derivation) j["tile_derivation"] = sc.derivation->steps;
  j["counters"] = CountersJson(r.counters, runs.forward_formula);
  j["trace_events"] = r.trace.size();
  j["O"] = MatrixJson(r.O);
  j["L"] = VectorJson(r.L);
  j["row_fully_masked"] = r.row_fully_masked;
  j["vs_reference"] = {{"agrees", runs.vs_reference.ok()},
                       {"mismatches", runs.vs_reference.mismatches},
                       {"max_abs_error", runs.vs_reference.max_abs_error},
                       {"max_rel_error", runs.vs_reference.max_rel_error},
                       {"nan", runs.vs_reference.nan_actual},
                       {"nonfinite_mismatches", runs.vs_reference.nonfinite_mismatches}};
  j["numerics"] = NumericsJson(r.numerics, view::InputPaths(sc));
  if (runs.backward) {
    j["backward"] = {{"algorithm", engine::ToString(runs.backward->algorithm)},
                     {"counters", CountersJson(runs.backward->counters, runs.backward_formula)},
                     {"dQ", MatrixJson(runs.backward->dQ)},
                     {"dK", MatrixJson(runs.backward->dK)},
                     {"dV", MatrixJson(runs.backward->dV)}};
  }
  return j;
}

void Run(const Options& opt) {
  data::AttentionScenario sc;
  try {
    sc = data::LoadAttentionScenario(opt.file);
  } catch (const data::LoadError& e) {
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  }
  const Runs runs = RunScenario(sc, /*record_trace=*/true, opt.workers);
  try {
    if (!opt.trace_json.empty()) WriteOutputFile(opt.trace_json, data::DumpJson(TraceJson(sc, runs.forward), 1) + "\n");
    if (!opt.counters_csv.empty()) WriteCountersCsv(opt.counters_csv, runs);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(3);
  }
  if (opt.as_json)
    std::cout << data::DumpJson(AllJson(sc, runs), 2) << "\n";
  else
    PrintText(sc, runs, opt.trace_limit);
  if (opt.strict && !runs.forward.numerics.empty()) throw CLI::RuntimeError(kStrictExit);
}

}  // namespace

void AddAttentionCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("attention",
                                 "Run a full-attention scenario (file v2): counters beside their formulas, trace, output");
  auto opt = std::make_shared<Options>();
  cmd->add_option("scenario", opt->file, "Scenario JSON file (schema_version 2, kind \"attention\")")->required();
  cmd->add_option("--trace-json", opt->trace_json, "Write every trace event (with cumulative counters) to FILE as JSON");
  cmd->add_option("--counters-csv", opt->counters_csv, "Write the counters and their formulas to FILE as CSV");
  cmd->add_flag("--json", opt->as_json, "Print everything as JSON instead of text");
  cmd->add_option("--trace-limit", opt->trace_limit, "Trace events printed as text (default 200)");
  cmd->add_option("--workers", opt->workers,
                  "Threads for the FlashAttention-2 order, one Q block each (0 = every hardware thread, the default; "
                  "results, counters and trace are the same for any count)")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("--strict", opt->strict, "Exit with status 4 when the numerics report names any overflow, underflow, infinite score, NaN or out-of-range input");
  cmd->callback([opt]() { Run(*opt); });
}

}  // namespace bw::cli
