// Lesson positions: the grammar as one table, and the parser, help, word list and schema pattern
// made from it; see position.h.
#include "data/position.h"

#include <charconv>

namespace bw::data {

namespace {

using A = PositionArgs;
using F = PositionForm;

constexpr std::string_view kBwd = "bwd:";
constexpr std::string_view kNumberPattern = "[1-9][0-9]{0,8}";   // 1 … kMaxPositionNumber

// 1 … 999999999 in decimal, nothing else (from_chars: no whitespace, no '+'; the first digit rules
// out '-' and leading zeros; nine digits cannot overflow an int).
std::optional<int> Number(std::string_view s) {
  if (s.empty() || s.size() > 9 || s[0] < '1' || s[0] > '9') return std::nullopt;
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<engine::Tensor> TensorNamed(std::string_view s) {
  for (int t = 0; t < engine::kTensorCount; ++t)
    if (s == engine::ToString(static_cast<engine::Tensor>(t))) return static_cast<engine::Tensor>(t);
  return std::nullopt;
}

const char* ArgsText(A a) {
  switch (a) {
    case A::kNone: return "";
    case A::kN: return ":N";
    case A::kIJ: return ":I,J";
    case A::kTensorBlock: return ":T[:I]";
    case A::kTensor: return ":T";
  }
  return "";
}

std::string TensorNames(const char* sep) {
  std::string s;
  for (int t = 0; t < engine::kTensorCount; ++t)
    s += (t ? sep : "") + std::string(engine::ToString(static_cast<engine::Tensor>(t)));
  return s;
}

std::string Help(const AcceptedPosition& a) {
  const auto& f = SpecOf(a.form);
  std::string s = (a.backward ? std::string(kBwd) : "") + f.name + ArgsText(f.args);
  if (f.args == A::kN && a.max_n > 0) s += " (1\u2026" + std::to_string(a.max_n) + ")";
  if (f.args == A::kIJ && a.max_n > 0 && a.max_m > 0)
    s += " (I \u2264 " + std::to_string(a.max_n) + ", J \u2264 " + std::to_string(a.max_m) + ")";
  return s;
}

std::string Pattern(const PositionFormSpec& f) {
  const std::string n(kNumberPattern), t = "(" + TensorNames("|") + ")";
  switch (f.args) {
    case A::kNone: return f.name;
    case A::kN: return f.name + (":" + n);
    case A::kIJ: return f.name + (":" + n + "," + n);
    case A::kTensorBlock: return f.name + (":" + t + "(:" + n + ")?");
    case A::kTensor: return f.name + (":" + t);
  }
  return "";
}

// Reads what follows "name:" into p; false when `rest` is not what the form takes.
bool ReadArgs(A args, std::string_view rest, Position& p) {
  switch (args) {
    case A::kNone: return rest.empty();
    case A::kN: {
      const auto n = Number(rest);
      p.n = n.value_or(0);
      return n.has_value();
    }
    case A::kIJ: {
      const auto comma = rest.find(',');
      if (comma == std::string_view::npos) return false;
      const auto i = Number(rest.substr(0, comma)), j = Number(rest.substr(comma + 1));
      p.n = i.value_or(0);
      p.m = j.value_or(0);
      return i && j;
    }
    case A::kTensor: {
      const auto t = TensorNamed(rest);
      p.tensor = t.value_or(engine::Tensor::kCount);
      return t.has_value();
    }
    case A::kTensorBlock: {   // T or T:I
      const auto colon = rest.find(':');
      const auto t = TensorNamed(rest.substr(0, colon));
      p.tensor = t.value_or(engine::Tensor::kCount);
      if (!t || colon == std::string_view::npos) return t.has_value();
      const auto i = Number(rest.substr(colon + 1));
      p.n = i.value_or(0);
      return i.has_value();
    }
  }
  return false;
}

}  // namespace

const std::vector<PositionFormSpec>& PositionFormSpecs() {
  static const std::vector<PositionFormSpec> kPositionForms = {
      {F::kStart, "start", A::kNone, true},
      {F::kEnd, "end", A::kNone, true},
      {F::kWrite, "write", A::kNone, false},
      {F::kCompute, "compute", A::kNone, false},
      {F::kEpDispatch, "ep:dispatch", A::kNone, false},
      {F::kEpCompute, "ep:compute", A::kNone, false},
      {F::kEpCombine, "ep:combine", A::kNone, false},
      {F::kCpuGpu, "cpu_gpu", A::kNone, false},
      {F::kEvent, "event", A::kN, false},
      {F::kLoad, "load", A::kN, false},
      {F::kUpdate, "update", A::kN, false},
      {F::kToken, "token", A::kN, false},
      {F::kCpuGpuToken, "cpu_gpu:token", A::kN, false},
      {F::kTile, "tile", A::kIJ, true},
      {F::kRead, "read", A::kTensorBlock, true},
      {F::kWriteTensor, "write", A::kTensorBlock, true},
      {F::kComputeTensor, "compute", A::kTensor, true},
      {F::kPartial, "partial", A::kNone, false},
      {F::kCombine, "combine", A::kN, false},
      {F::kStep, "step", A::kN, false},
      {F::kSend, "send", A::kN, false},
      {F::kTail, "tail", A::kNone, false},
      {F::kCompare, "compare", A::kNone, false},
  };
  return kPositionForms;
}

const PositionFormSpec& SpecOf(PositionForm form) { return PositionFormSpecs()[static_cast<size_t>(form)]; }

std::optional<Position> ParsePosition(std::string_view text) {
  const bool backward = text.starts_with(kBwd);
  if (backward) text.remove_prefix(kBwd.size());
  for (const auto& f : PositionFormSpecs()) {
    if (backward && !f.backward) continue;
    const std::string_view name = f.name;
    Position p{f.form, backward};
    if (f.args == A::kNone ? text == name
                           : text.starts_with(name) && text.size() > name.size() && text[name.size()] == ':' &&
                                 ReadArgs(f.args, text.substr(name.size() + 1), p))
      return p;
  }
  return std::nullopt;
}

std::string FormatPosition(const Position& p) {
  const auto& f = SpecOf(p.form);
  std::string s = (p.backward ? std::string(kBwd) : "") + f.name;
  switch (f.args) {
    case A::kNone: break;
    case A::kN: s += ":" + std::to_string(p.n); break;
    case A::kIJ: s += ":" + std::to_string(p.n) + "," + std::to_string(p.m); break;
    case A::kTensor: s += std::string(":") + engine::ToString(p.tensor); break;
    case A::kTensorBlock:
      s += std::string(":") + engine::ToString(p.tensor) + (p.n > 0 ? ":" + std::to_string(p.n) : "");
      break;
  }
  return s;
}

std::string PositionHelp(const std::vector<AcceptedPosition>& accepted) {
  std::string s;
  bool tensors = false;
  for (const auto& a : accepted) {
    s += (s.empty() ? "" : ", ") + Help(a);
    tensors |= SpecOf(a.form).args == A::kTensor || SpecOf(a.form).args == A::kTensorBlock;
  }
  if (tensors) s += "; T one of " + TensorNames(" ");
  return s;
}

bool Accepts(const std::vector<AcceptedPosition>& accepted, const Position& p) {
  for (const auto& a : accepted)
    if (a.form == p.form && a.backward == p.backward) return true;
  return false;
}

std::string PositionForms() {
  std::vector<AcceptedPosition> all;
  std::string bwd;
  for (const auto& f : PositionFormSpecs()) {
    all.push_back({f.form});
    if (f.backward) bwd += (bwd.empty() ? "" : ", ") + Help({f.form});
  }
  return PositionHelp(all) + "; \"bwd:\" before " + bwd + "; N, I, J from 1 (no sign, no leading zero)";
}

std::string PositionPattern() {
  std::string forward, backward;
  for (const auto& f : PositionFormSpecs()) {
    std::string& to = f.backward ? backward : forward;
    to += (to.empty() ? "" : "|") + Pattern(f);
  }
  return "^((" + std::string(kBwd) + ")?(" + backward + ")|" + forward + ")$";
}

}  // namespace bw::data
