// Placeholder filling for lesson prose; see lesson_text.h.
#include "view/lesson_text.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>

#include "view/format.h"

namespace bw::view {

namespace {

std::string StateM(const engine::SoftmaxState& s, const engine::ExactState* ex) {
  return ex ? FormatLogOf(ex->M) : FormatDouble(s.m);
}
std::string Scalar(double x, const engine::Rational* ex) { return ex ? FormatExact(*ex) : FormatDouble(x); }
std::string Vec(const Eigen::VectorXd& v, const std::vector<engine::Rational>* ex) {
  return ex ? FormatExactVector(*ex) : FormatVector(v);
}

void AddState(Quantities& q, const std::string& suffix, const engine::SoftmaxState& s, const engine::ExactState* ex) {
  q["m" + suffix] = StateM(s, ex);
  q["l" + suffix] = Scalar(s.l, ex ? &ex->l : nullptr);
  q["u" + suffix] = Vec(s.u, ex ? &ex->u : nullptr);
}

}  // namespace

Quantities StateQuantitiesAt(const engine::SingleQueryRun& run, int event) {
  Quantities q;
  const auto& p = run.problem;
  const bool exact = run.exact.has_value();
  const int merged = run.BlocksMergedAt(event);

  // Running state at the event.
  if (merged == 0) {
    AddState(q, "", engine::InitialState(p), nullptr);  // raw mode: m = 0 from the start
    q["output_so_far"] = "\u2014";  // nothing merged: no output yet
  } else {
    const auto& b = run.blocks[merged - 1];
    const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
    AddState(q, "", b.after, ex ? &ex->after : nullptr);
    q["output_so_far"] = b.after.IsEmpty() ? "\u2014" : Vec(b.output_so_far, ex ? &ex->output_so_far : nullptr);
  }
  q["output"] = Vec(run.output, exact ? &run.exact->output : nullptr);
  q["reference"] = Vec(run.reference_output, exact ? &run.exact->reference_output : nullptr);
  q["average"] = Vec(run.average_of_block_outputs, exact ? &run.exact->average_of_block_outputs : nullptr);
  q["blocks"] = std::to_string(run.BlockCount());
  q["merged"] = std::to_string(merged);
  q["n"] = std::to_string(p.scores.size());
  q["mode"] = engine::ToString(p.mode);
  // FlashAttention-4's conditional rescale (a threshold τ): the merges that kept m, in all and so far.
  if (p.rescale_threshold) {
    q["tau"] = FormatDouble(*p.rescale_threshold);
    q["rescales_skipped"] = std::to_string(run.rescales_skipped);
    int so_far = 0;
    for (int b = 0; b < merged; ++b) so_far += run.blocks[static_cast<size_t>(b)].rescale_skipped ? 1 : 0;
    q["rescales_skipped_so_far"] = std::to_string(so_far);
  }
  return q;
}

void AddBlockQuantities(Quantities& q, const engine::SingleQueryRun& run, int block) {
  const auto& b = run.blocks[static_cast<size_t>(block) - 1];
  const std::string at = "@" + std::to_string(b.block);
  const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
  AddState(q, at, b.after, ex ? &ex->after : nullptr);
  q["m_b" + at] = StateM(b.local, ex ? &ex->local : nullptr);
  q["l_b" + at] = Scalar(b.local.l, ex ? &ex->local.l : nullptr);
  q["u_b" + at] = Vec(b.local.u, ex ? &ex->local.u : nullptr);
  q["local_output" + at] = b.local.IsEmpty() ? "\u2014" : Vec(b.local_output, ex ? &ex->local_output : nullptr);
  q["alpha" + at] = Scalar(b.factors.alpha, ex ? &ex->alpha : nullptr);
  q["beta" + at] = Scalar(b.factors.beta, ex ? &ex->beta : nullptr);
}

Quantities QuantitiesAt(const engine::SingleQueryRun& run, int event) {
  Quantities q = StateQuantitiesAt(run, event);
  const auto& p = run.problem;
  const bool exact = run.exact.has_value();
  for (int j = 1; j <= run.BlockCount(); ++j) AddBlockQuantities(q, run, j);

  std::string w = "(", v = "(", bs = "(";
  const std::vector<std::string> shown = exact ? std::vector<std::string>() : FormatDistinct(p.scores);
  for (size_t i = 0; i < p.scores.size(); ++i) {
    w += (i ? ", " : "") + (exact ? FormatFraction((*p.exact_weights)[i]) : shown[i]);
    Eigen::VectorXd row = p.values.row(static_cast<Eigen::Index>(i)).transpose();
    v += (i ? ", " : "") + (exact ? FormatExactVector((*p.exact_values)[i]) : FormatVector(row));
  }
  for (size_t j = 0; j < p.block_sizes.size(); ++j) bs += (j ? ", " : "") + std::to_string(p.block_sizes[j]);
  q[p.score_kind == engine::ScoreKind::kWeights ? "weights" : "logits"] = w + ")";
  q["values"] = v + ")";
  q["block_sizes"] = bs + ")";
  return q;
}

namespace {

// One entry of a value in `form`: "160/7 ≈ 22.86" → "160/7" or "22.86"; a plain fraction's decimal.
std::string EntryInForm(const std::string& entry, bool decimal) {
  static const std::string approx = " \u2248 ";
  if (const size_t a = entry.find(approx); a != std::string::npos) return decimal ? entry.substr(a + approx.size()) : entry.substr(0, a);
  if (!decimal) return entry;
  const size_t slash = entry.find('/');
  if (slash == std::string::npos) return entry;
  static const std::string minus = "\u2212";
  std::string num = entry.substr(0, slash);
  const bool neg = num.rfind(minus, 0) == 0 || num.rfind("-", 0) == 0;
  if (neg) num = num.substr(num[0] == '-' ? 1 : minus.size());
  const std::string den = entry.substr(slash + 1);
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 15 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(num) || !digits(den) || std::stod(den) == 0) return entry;
  return FormatDouble((neg ? -1.0 : 1.0) * std::stod(num) / std::stod(den));
}

}  // namespace

namespace {
// How far apart the numbers after the last '@' of two names are (a large number when either has none).
long AtDistance(const std::string& a, const std::string& b) {
  const auto number = [](const std::string& t) -> long {
    const size_t at = t.rfind('@');
    if (at == std::string::npos || at + 1 >= t.size() || t.size() - at > 9) return -1;
    long n = 0;
    for (size_t i = at + 1; i < t.size(); ++i) {
      if (t[i] < '0' || t[i] > '9') return -1;
      n = n * 10 + (t[i] - '0');
    }
    return n;
  };
  const long x = number(a), y = number(b);
  return x < 0 || y < 0 ? 1L << 30 : std::labs(x - y);
}
}  // namespace

std::string NearestName(const std::vector<std::string>& names, const std::string& name) {
  const size_t limit = std::max<size_t>(1, name.size() / 3);
  std::string best;
  size_t best_d = limit + 1;
  std::vector<size_t> row;
  for (const auto& cand : names) {
    if (cand.size() > name.size() + limit || name.size() > cand.size() + limit) continue;
    row.assign(cand.size() + 1, 0);
    for (size_t j = 0; j <= cand.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= name.size(); ++i) {
      size_t diag = row[0];
      row[0] = i;
      for (size_t j = 1; j <= cand.size(); ++j) {
        const size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (name[i - 1] == cand[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    // (Of two as near, the one whose block number "@N" is nearest: "l@4" on a 3-block scenario meant
    // l@3, not l@1 — a new author's try.)
    if (row[cand.size()] < best_d || (row[cand.size()] == best_d && !best.empty() && AtDistance(cand, name) < AtDistance(best, name))) {
      best_d = row[cand.size()];
      best = cand;
    }
  }
  if (best.empty() && name.size() >= 3)   // "out": the shortest name it begins ("output")
    for (const auto& cand : names)
      if (cand.rfind(name, 0) == 0 && (best.empty() || cand.size() < best.size())) best = cand;
  return best;
}

std::string PlaceholderBase(const std::string& name) { return name.substr(0, name.rfind('|')); }

std::optional<std::string> LookupPlaceholder(const Quantities& q, const std::string& name) {
  const size_t bar = name.rfind('|');
  const auto it = q.find(name.substr(0, bar));
  if (it == q.end()) return std::nullopt;
  if (bar == std::string::npos) return it->second;
  const std::string form = name.substr(bar + 1);
  if (form != "fraction" && form != "decimal") return std::nullopt;
  const bool decimal = form == "decimal";
  const std::string& v = it->second;
  if (v.size() < 2 || v.front() != '(' || v.back() != ')') return EntryInForm(v, decimal);
  std::string out = "(";   // a vector: "(a, b)", each entry in the form
  size_t start = 1;
  for (size_t k = 1; k < v.size(); ++k) {
    if (v[k] != ',' && k + 1 != v.size()) continue;
    size_t b = start;
    while (b < k && v[b] == ' ') ++b;
    out += (start > 1 ? ", " : "") + EntryInForm(v.substr(b, k - b), decimal);
    start = k + 1;
  }
  return out + ")";
}

FilledText FillPlaceholders(const std::string& tmpl, const Quantities& q) {
  FilledText out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const char c = tmpl[i];
    if (c == '{' && i + 1 < tmpl.size() && tmpl[i + 1] == '{') { out.text += '{'; ++i; continue; }
    if (c == '}' && i + 1 < tmpl.size() && tmpl[i + 1] == '}') { out.text += '}'; ++i; continue; }
    if (c != '{') { out.text += c; continue; }
    const size_t close = tmpl.find('}', i);
    if (close == std::string::npos) { out.unknown.push_back(tmpl.substr(i)); out.text += tmpl.substr(i); break; }
    const std::string name = tmpl.substr(i + 1, close - i - 1);
    if (const auto value = LookupPlaceholder(q, name)) {
      out.text += *value;
    } else {
      out.unknown.push_back(name);
      out.text += "{" + name + "?}";
    }
    i = close;
  }
  return out;
}

namespace {

bool StartsWithAny(std::string_view t, std::initializer_list<std::string_view> heads) {
  for (const auto h : heads)
    if (t.substr(0, h.size()) == h) return true;
  return false;
}
bool EndsWithAny(std::string_view t, std::initializer_list<std::string_view> tails) {
  for (const auto e : tails)
    if (t.size() >= e.size() && t.substr(t.size() - e.size()) == e) return true;
  return false;
}
// · ≈ = × + − - / < > ≤ ≥ ≠
constexpr std::string_view kOperators[] = {"\u00b7", "\u2248", "=", "\u00d7", "+", "\u2212", "-",
                                           "/",      "<",      ">", "\u2264", "\u2265", "\u2260"};
// A number as prose writes it: "32", "6.1", "40/3", "−0.5", "(2," or "1.5)" (brackets and a comma aside).
bool IsNumber(std::string_view t) {
  while (!t.empty() && (t.front() == '(' || t.front() == '[')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ')' || t.back() == ']' || t.back() == ',' || t.back() == ';')) t.remove_suffix(1);
  if (t.substr(0, 3) == "\u2212") t.remove_prefix(3);
  else if (!t.empty() && t.front() == '-') t.remove_prefix(1);
  if (t.empty() || t.front() < '0' || t.front() > '9') return false;
  return t.find_first_not_of("0123456789./") == std::string_view::npos;
}

}  // namespace

bool MayBreakAtSpace(std::string_view text, size_t at) {
  if (at >= text.size() || text[at] != ' ') return true;
  size_t b = at;
  while (b > 0 && text[b - 1] != ' ' && text[b - 1] != '\n') --b;
  size_t e = at + 1;
  while (e < text.size() && text[e] == ' ') ++e;
  size_t f = e;
  while (f < text.size() && text[f] != ' ' && text[f] != '\n') ++f;
  const std::string_view before = text.substr(b, at - b), after = text.substr(e, f - e);
  if (before.empty() || after.empty()) return true;
  // Operators (both sides) and brackets. (An en or em dash is prose, and "→" opens an answer.)
  for (const std::string_view op : kOperators)
    if (EndsWithAny(before, {op}) || StartsWithAny(after, {op})) return false;
  if (EndsWithAny(before, {"(", "["}) || StartsWithAny(after, {")", "]", "%", "\u2030", "\u00b0"})) return false;
  if (IsNumber(before)) {
    // A unit after its number (a trailing mark aside).
    std::string_view unit = after;
    while (!unit.empty() && std::string_view(",.;:)]").find(unit.back()) != std::string_view::npos) unit.remove_suffix(1);
    for (const std::string_view u : {"%", "ms", "s", "\u00b5s", "us", "ns", "B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TB/s", "GB/s",
                                     "px", "em", "W", "GHz", "MHz", "FLOPs", "FLOPS", "TFLOPS", "TFLOP/s", "PFLOPS", "bytes", "elements"})
      if (unit == u) return false;
    // Entries of a bracketed list of numbers: "(2, 2, 2)" — inside an open bracket, number after number.
    if (before.back() == ',' && IsNumber(after)) {
      int depth = 0;
      for (size_t k = 0; k < at; ++k) depth += text[k] == '(' || text[k] == '[' ? 1 : text[k] == ')' || text[k] == ']' ? -1 : 0;
      if (depth > 0) return false;
    }
  }
  return true;
}

size_t LastSentenceEnd(std::string_view line) {
  size_t best = std::string_view::npos;
  const auto closing = [&](size_t k) {   // past closing quotes and brackets
    for (bool more = true; more;) {
      more = false;
      for (const std::string_view c : {")", "\"", "\u201d", "\u2019", "\uff09", "\u300d"})
        if (line.substr(k, c.size()) == c) k += c.size(), more = true;
    }
    return k;
  };
  for (size_t k = 0; k < line.size(); ++k) {
    size_t after = std::string_view::npos;
    if (line[k] == '.' || line[k] == '!' || line[k] == '?') {
      const size_t c = closing(k + 1);
      if (c < line.size() && line[c] == ' ') after = c;
      if (line[k] == '.' && after != std::string_view::npos) {   // not an abbreviation
        size_t w = k;
        while (w > 0 && line[w - 1] != ' ') --w;
        const std::string_view word = line.substr(w, k + 1 - w);
        for (const std::string_view a : {"e.g.", "i.e.", "cf.", "vs.", "etc.", "Fig.", "Eq.", "Sec.", "al."})
          if (word == a) after = std::string_view::npos;
      }
    } else {
      for (const std::string_view m : {"\u3002", "\uff01", "\uff1f"})
        if (line.substr(k, m.size()) == m) {
          const size_t c = closing(k + m.size());
          if (c < line.size()) after = c;
        }
    }
    if (after != std::string_view::npos && after > 0) best = after;
  }
  return best;
}

std::vector<std::string> PlaceholderNames(const std::string& tmpl) {
  std::vector<std::string> names;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{' && i + 1 < tmpl.size() && tmpl[i + 1] == '{') { ++i; continue; }
    if (tmpl[i] != '{') continue;
    const size_t close = tmpl.find('}', i);
    if (close == std::string::npos) break;
    names.push_back(tmpl.substr(i + 1, close - i - 1));
    i = close;
  }
  return names;
}

}  // namespace bw::view
