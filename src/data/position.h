// Lesson positions: the one grammar of the strings a lesson step binds to ("start", "update:2",
// "tile:1,3", "bwd:write:dV:1", "cpu_gpu:token:2" …), written once, as data (kPositionForms in
// position.cpp). From that table come
//   - ParsePosition, which the lesson loader (lesson.cpp) and every ScenarioModel::FindPosition use;
//   - PositionHelp, the list a model prints of the forms it accepts, with its ranges;
//   - PositionForms, the whole grammar in words (the loader's error for a string that is no position);
//   - PositionPattern, the regular expression of schemas/lesson-v1.schema.json (a test asserts they
//     are equal, character for character).
// Every index is 1-based, as on screen and in the papers: a number is 1 to 999999999, in decimal
// digits without sign, leading '+' or leading zero ("tile:0,1" and "event:01" are no positions).
// Whether the number is in range is the model's question (the trace of a scenario with 3 blocks
// has no "update:4"), not the grammar's.
// A new form: a PositionForm, one row of kPositionForms, and the models that accept it (their
// AcceptedPositions and Find); then copy PositionPattern() into the schema (the test prints it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/attention_counters.h"

namespace bw::data {

enum class PositionForm {
  kStart,          // start
  kEnd,            // end
  kWrite,          // write            (single query: O written)
  kCompute,        // compute          (MoE: the training compute estimate)
  kEpDispatch,     // ep:dispatch
  kEpCompute,      // ep:compute
  kEpCombine,      // ep:combine
  kCpuGpu,         // cpu_gpu
  kEvent,          // event:N          (the N-th event of the timeline)
  kLoad,           // load:N
  kUpdate,         // update:N
  kToken,          // token:N
  kCpuGpuToken,    // cpu_gpu:token:N
  kTile,           // tile:I,J
  kRead,           // read:T[:I]       (T a tensor name; I its block)
  kWriteTensor,    // write:T[:I]
  kComputeTensor,  // compute:T
  kPartial,        // partial          (decode: every split writes O_s, lse_s)
  kCombine,        // combine:N        (decode: split N merged by the combine)
  kStep,           // step:N           (ring: every device merges the shard it holds at step N)
  kSend,           // send:N           (ring: every device passes its shard on after step N)
  kTail,           // tail             (a recorded GPU run: the first SM has finished its last tile)
  kCompare,        // compare          (a recorded GPU run beside the one it is compared with)
  kCount
};

// What a form takes after its name.
enum class PositionArgs { kNone, kN, kIJ, kTensorBlock, kTensor };

struct PositionFormSpec {
  PositionForm form;
  const char* name;      // the words before the arguments: "start", "cpu_gpu:token", "read"
  PositionArgs args;
  bool backward;         // may follow "bwd:" (the backward pass of an attention scenario)
};

// The table, one row per form, in PositionForm order.
const std::vector<PositionFormSpec>& PositionFormSpecs();
const PositionFormSpec& SpecOf(PositionForm form);

struct Position {
  PositionForm form = PositionForm::kStart;
  bool backward = false;                        // "bwd:…"
  int n = 0;                                    // N, I (tile:I,J; read:T:I …), 1-based; 0 = absent ([:I] left out)
  int m = 0;                                    // J of tile:I,J, 1-based; 0 otherwise
  engine::Tensor tensor = engine::Tensor::kCount;  // T; kCount when the form has none
  bool operator==(const Position&) const = default;
};

inline constexpr int kMaxPositionNumber = 999999999;  // 9 digits: fits an int, and the schema says so

// The position `text` names, or nullopt when it is no position of the grammar (strict: the whole
// string, numbers as above, a tensor name of engine::ToString(Tensor), "bwd:" only where allowed).
std::optional<Position> ParsePosition(std::string_view text);
// The canonical text: ParsePosition(FormatPosition(p)) == p, and FormatPosition(*ParsePosition(s)) == s.
std::string FormatPosition(const Position& p);

// A form a model accepts and its ranges, for the help text: N ≤ max_n (N or I), J ≤ max_m; 0 = not said.
struct AcceptedPosition {
  PositionForm form;
  bool backward = false;
  int max_n = 0, max_m = 0;
};
// "start, end, event:N (N = 1…42), tile:I,J (I ≤ 3, J ≤ 2), read:T[:I], …": the forms in the
// order given, with their ranges; T forms end with the tensor names.
std::string PositionHelp(const std::vector<AcceptedPosition>& accepted);
// True when `accepted` lists p's form (with p's "bwd:").
bool Accepts(const std::vector<AcceptedPosition>& accepted, const Position& p);
// Every form of the grammar in words, for the error on a string that is no position.
std::string PositionForms();
// The regular expression of every position, anchored: the "pattern" of a step's position in
// schemas/lesson-v1.schema.json.
std::string PositionPattern();

}  // namespace bw::data
