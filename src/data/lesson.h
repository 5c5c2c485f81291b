// Lesson file v1: ordered steps, each bound to a scenario and a position in the engine's trace.
//   { "$schema": "../schemas/lesson-v1.schema.json", "schema_version": 1, "id": "RC-T3",
//     "title": {"zh","en"},
//     "scenarios": {"worked": "scenarios/worked_214.json"},   — paths relative to the lesson file,
//                                                               never outside the lesson's folder
//     "steps": [ { "id": "RC-T3/b0", "scenario": "worked", "position": "start",
//                  "title", "body", "further", "teacher_notes", "source": {"zh","en"} }, … ] }
// "position" is a trace event label: "start", "load:J", "update:J", "write".
// Text may hold placeholders such as {u}, {l}, {m}, {output}, {u_b@1}: see view/lesson_text.h.
// Errors: LoadError (file, JSON path, reason); a step whose scenario does not load is an error.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "data/scenario.h"
#include "engine/single_query.h"

namespace bw::data {

inline constexpr int kMaxSteps = 500;

struct LessonStep {
  std::string id;            // "RC-T3/b0"
  std::string scenario;      // key into Lesson::scenarios
  std::string position;      // trace event label
  LocalText title, body, further, teacher_notes, source;
};

struct LoadedScenario {
  std::string relative_path;     // as written in the lesson
  std::filesystem::path path;    // resolved
  SingleQueryScenario scenario;
  engine::SingleQueryRun run;    // computed once at load time
};

struct Lesson {
  std::string file;
  std::string id;
  LocalText title;
  std::map<std::string, LoadedScenario> scenarios;
  std::vector<LessonStep> steps;

  int FindStep(const std::string& step_id) const;  // -1 if absent
  const LoadedScenario& ScenarioOf(const LessonStep& s) const { return scenarios.at(s.scenario); }
  int EventOf(const LessonStep& s) const { return ScenarioOf(s).run.FindEvent(s.position); }
};

Lesson LoadLesson(const std::filesystem::path& path);

}  // namespace bw::data
