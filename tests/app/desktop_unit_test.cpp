// The desktop pieces that need no window (issue 13): the one shortcut table under German and French
// layouts (and the README's copy of it), first-window geometry at 125 % and 200 %, export names, the
// data root, logical font sizes in the settings, Recent as absolute paths and Save As into another
// folder, both from another working folder.
#include <GLFW/glfw3.h>
#include <imgui_internal.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "session/app_state.h"
#include "app/damage.h"
#include "session/editor_fields.h"
#include "app/export.h"
#include "app/fonts.h"
#include "app/glyphs.h"
#include "app/painter.h"
#include "app/panels.h"
#include "app/paths.h"
#include "app/save_as.h"
#include "app/settings.h"
#include "app/shortcuts.h"
#include "app/widgets.h"
#include "app/window_geometry.h"
#include "data/load_error.h"
#include "view/scenario_model.h"
#include "view/scene.h"

namespace {

namespace fs = std::filesystem;
using bw::app::AppState;
using bw::app::KeyPress;
const fs::path kRoot = BLOCKWISE_ROOT;

std::string Help(const KeyPress& k) {
  const auto* sc = bw::app::Match(k);
  return sc ? bw::view::StrName(sc->help) : "";
}

float FontAfter(const KeyPress& k, float from = 22.0f) {
  AppState s;
  s.options.font_px = from;
  const auto* sc = bw::app::Match(k);
  if (sc && sc->run) sc->run(s, k);
  return s.options.font_px;
}

// A fresh empty folder under the test's temporary folder.
fs::path TempDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("blockwise-desktop-" + std::to_string(::getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Restores the working folder at the end of a test.
struct Cwd {
  fs::path saved = fs::current_path();
  ~Cwd() { fs::current_path(saved); }
};

TEST(Shortcuts, FontSizeByCharacterOnUsGermanAndFrenchLayouts) {
  const int ctrl = GLFW_MOD_CONTROL, shift = GLFW_MOD_SHIFT;
  // US: Ctrl + is Ctrl+Shift+'=' (xdotool ctrl+plus), or Ctrl+'='; Ctrl − is the '-' key.
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_EQUAL, ctrl | shift, '='}), 22.0f * 1.1f);
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_MINUS, ctrl, '-'}), 22.0f / 1.1f);
  // German: '+' is on the US ']' key, '-' on the US '/' key; the US '=' position types '´'.
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_RIGHT_BRACKET, ctrl, '+'}), 22.0f * 1.1f);
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_SLASH, ctrl, '-'}), 22.0f / 1.1f);
  EXPECT_EQ(Help({GLFW_KEY_EQUAL, ctrl, 0}), "");   // '´' (non-ASCII): no shortcut
  EXPECT_EQ(Help({GLFW_KEY_MINUS, ctrl, 0}), "");   // 'ß'
  // French: '=' (shift '+') on the US '=' key, '-' on the 6 key, '0' is the shifted 'à' key.
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_EQUAL, ctrl, '='}), 22.0f * 1.1f);
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_6, ctrl, '-'}), 22.0f / 1.1f);
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_0, ctrl, 0}, 30.0f), bw::app::kDefaultFontPx);
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_0, ctrl, '0'}, 30.0f), bw::app::kDefaultFontPx);
  // The numpad, with or without Ctrl for + and −.
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_KP_ADD, 0, 0}), 22.0f * 1.1f);
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_KP_SUBTRACT, ctrl, 0}), 22.0f / 1.1f);
  EXPECT_FLOAT_EQ(FontAfter({GLFW_KEY_KP_0, ctrl, 0}, 40.0f), bw::app::kDefaultFontPx);
  // Without Ctrl, '+' and '-' do nothing (they are typed into fields).
  EXPECT_EQ(Help({GLFW_KEY_RIGHT_BRACKET, 0, '+'}), "");
}

TEST(Shortcuts, LettersByTheLetterTheLayoutTypes) {
  const int ctrl = GLFW_MOD_CONTROL;
  // AZERTY: 'a' on the US Q key, ',' on the US M key; QWERTZ: 'z' on the US Y key.
  EXPECT_EQ(Help({GLFW_KEY_M, ctrl, ','}), "key_settings");
  EXPECT_EQ(Help({GLFW_KEY_M, ctrl, 'm'}), "");
  EXPECT_EQ(Help({GLFW_KEY_O, ctrl, 'o'}), "key_open");
  EXPECT_EQ(Help({GLFW_KEY_E, ctrl, 'e'}), "key_export");
  EXPECT_EQ(Help({GLFW_KEY_P, 0, 'p'}), "key_p");
  EXPECT_EQ(Help({GLFW_KEY_P, ctrl, 'p'}), "");
  EXPECT_EQ(Help({GLFW_KEY_G, 0, 'g'}), "key_g");
  EXPECT_EQ(Help({GLFW_KEY_L, 0, 'l'}), "key_l");
  EXPECT_EQ(Help({GLFW_KEY_RIGHT, GLFW_MOD_SHIFT, 0}), "key_shift_arrows");
  EXPECT_EQ(Help({GLFW_KEY_RIGHT, 0, 0}), "key_arrows");
  ASSERT_NE(bw::app::MatchTyped('?'), nullptr);
  EXPECT_STREQ(bw::view::StrName(bw::app::MatchTyped('?')->help), "key_help");
  EXPECT_EQ(bw::app::MatchTyped('x'), nullptr);
  // Ctrl+E and Ctrl+Shift+E queue their exports (main writes them after the frame).
  AppState s;
  bw::app::Match({GLFW_KEY_E, ctrl, 'e'})->run(s, {GLFW_KEY_E, ctrl, 'e'});
  EXPECT_EQ(s.ui.export_request, bw::app::Transient::Export::kPng);
  bw::app::Match({GLFW_KEY_E, ctrl | GLFW_MOD_SHIFT, 'e'})->run(s, {GLFW_KEY_E, ctrl | GLFW_MOD_SHIFT, 'e'});
  EXPECT_EQ(s.ui.export_request, bw::app::Transient::Export::kData);
}

TEST(Shortcuts, EveryRowHasTextInBothLanguagesAndTheReadmeListsThemAll) {
  for (const auto& sc : bw::app::Shortcuts())
    for (const char* lang : {"zh", "en"}) {
      const std::string& t = bw::view::UiText(sc.help, lang);
      EXPECT_FALSE(t.empty()) << bw::view::StrName(sc.help) << " has no " << lang << " text";
      EXPECT_NE(t.find('\t'), std::string::npos) << bw::view::StrName(sc.help) << ": keys\\tdoes";
    }
  std::ifstream in(kRoot / "README.md");
  std::string line, table;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line == "| key | does |") in_table = true;
    if (in_table && line.rfind("|", 0) != 0) break;
    if (in_table) table += line + "\n";
  }
  EXPECT_EQ(table, bw::app::ShortcutMarkdown("en")) << "README.md's key table is not the shortcut table; it should read:\n"
                                                     << bw::app::ShortcutMarkdown("en");
}

TEST(WindowGeometry, FitsTheWorkAreaAtAnyContentScale) {
  // 125 % on 1920 × 1080: 2000 × 1250 would not fit; shrunk to 94 % of the work area, centred.
  auto g = bw::app::FitWindow(1600, 1000, 1.25f, {0, 0, 1920, 1080});
  EXPECT_EQ(g.w, 1804);
  EXPECT_EQ(g.h, 1015);
  EXPECT_EQ(g.x, 58);
  EXPECT_EQ(g.y, 32);
  // 200 % on 2560 × 1600 (3200 × 2000 unfitted), with a 40 px panel at the top.
  g = bw::app::FitWindow(1600, 1000, 2.0f, {0, 40, 2560, 1560});
  EXPECT_EQ(g.w, 2406);
  EXPECT_EQ(g.h, 1466);
  EXPECT_EQ(g.x, 77);
  EXPECT_EQ(g.y, 87);
  // At 100 % the requested size fits and is kept.
  g = bw::app::FitWindow(1600, 1000, 1.0f, {0, 0, 1920, 1080});
  EXPECT_EQ(g.w, 1600);
  EXPECT_EQ(g.h, 1000);
}

TEST(Paths, DataRootAndDefaultExportFolder) {
  // ctest sets BLOCKWISE_ROOT to the source tree.
  EXPECT_EQ(bw::app::FindDataRoot().rule, "BLOCKWISE_ROOT");
  EXPECT_TRUE(fs::equivalent(bw::app::FindDataRoot().path, kRoot));
  const fs::path home = TempDir("home");
  fs::create_directories(home / "cfg");
  fs::create_directories(home / "Bilder");
  std::ofstream(home / "cfg" / "user-dirs.dirs") << "# written by xdg-user-dirs-update\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n";
  const std::string old_home = std::getenv("HOME") ? std::getenv("HOME") : "";
  setenv("HOME", home.c_str(), 1);
  setenv("XDG_CONFIG_HOME", (home / "cfg").c_str(), 1);
  EXPECT_EQ(bw::app::DefaultExportDir(), home / "Bilder");
  fs::remove_all(home / "Bilder");
  EXPECT_EQ(bw::app::DefaultExportDir(), home);  // no pictures folder: the home folder
  setenv("HOME", old_home.c_str(), 1);
  unsetenv("XDG_CONFIG_HOME");
}

TEST(Export, NamesFromLessonAndStepIds) {
  AppState s;
  ASSERT_TRUE(bw::app::OpenFile(s, (kRoot / "lessons" / "rc-t3.json").string())) << s.ui.error;
  bw::app::GoToStep(s, 2);
  EXPECT_EQ(bw::app::ExportStem(s), "blockwise-RC-T3-b2");
  s.options.export_dir = "/tmp/x";
  EXPECT_EQ(bw::app::ExportPath(s, "@2x.png"), "/tmp/x/blockwise-RC-T3-b2@2x.png");
  ASSERT_TRUE(bw::app::OpenFile(s, (kRoot / "lessons" / "scenarios" / "worked_214.json").string())) << s.ui.error;
  bw::app::SetEvent(s, 2);
  EXPECT_EQ(bw::app::ExportStem(s), "blockwise-worked_214-e3");
  // The course's end card is named from the course, not from its last step.
  ASSERT_TRUE(bw::app::OpenFile(s, (kRoot / "lessons" / "course.json").string())) << s.ui.error;
  ASSERT_TRUE(bw::app::GoToStepId(s, "end"));
  EXPECT_EQ(bw::app::ExportStem(s), "blockwise-FLASH-end");
}

// Ctrl+E into an export folder that does not exist yet creates it (a helper found the export failing);
// a folder that cannot be made is a clear error naming it.
TEST(Export, CreatesAMissingExportFolder) {
  AppState s;
  ASSERT_TRUE(bw::app::OpenFile(s, (kRoot / "lessons" / "rc-t3.json").string())) << s.ui.error;
  const fs::path dir = TempDir("export") / "new" / "folder";
  s.options.export_dir = dir.string();
  ASSERT_EQ(bw::app::MakeExportFolder(s), "");
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_EQ(bw::app::ExportPanelsCsv(s, bw::app::ExportPath(s, "-counters.csv")), "");
  EXPECT_TRUE(fs::exists(dir / (bw::app::ExportStem(s) + "-counters.csv")));
  const fs::path file = TempDir("export-file") / "a-file";
  std::ofstream(file) << "x";
  s.options.export_dir = (file / "sub").string();
  EXPECT_NE(bw::app::MakeExportFolder(s).find("cannot create the export folder"), std::string::npos);
}

// Options given for one run (--lang en --projector, a link's lang=en&projector=1) are not saved: the
// next run without them opens as the settings were (issue 32). A value the user changes is saved.
TEST(Settings, ARunsOwnOptionsAreNotSavedUnlessChangedInTheApp) {
  bw::app::Options before;
  before.lang = "zh";
  before.projector = false;
  before.font_px = 22;
  bw::app::RunOverrides given;
  given.lang = "en";
  given.projector = true;
  given.font_px = 30;
  bw::app::Options now = before;
  now.lang = "en";
  now.projector = true;
  now.font_px = 30;
  now.recent = {"/a.json"};
  bw::app::Options saved = bw::app::OptionsToSave(now, before, given);
  EXPECT_EQ(saved.lang, "zh");
  EXPECT_FALSE(saved.projector);
  EXPECT_FLOAT_EQ(saved.font_px, 22);
  EXPECT_EQ(saved.recent, now.recent);   // the rest is saved as it is
  // Changed in the app after the start (L, P, Ctrl +): saved as changed.
  now.lang = "zh";
  now.projector = false;
  now.font_px = 33;
  before.lang = "en";
  saved = bw::app::OptionsToSave(now, before, given);
  EXPECT_EQ(saved.lang, "zh");
  EXPECT_FALSE(saved.projector);
  EXPECT_FLOAT_EQ(saved.font_px, 33);
  // Not given: saved as it is.
  saved = bw::app::OptionsToSave(now, before, {});
  EXPECT_EQ(saved.lang, "zh");
  EXPECT_FLOAT_EQ(saved.font_px, 33);
}

TEST(Settings, FontSizeIsSavedLogicalWhateverTheContentScale) {
  const fs::path dir = TempDir("settings");
  AppState s;
  s.ui.content_scale = 2.0f;
  s.options.font_px = 24.0f;
  s.options.export_dir = "/srv/exports";
  EXPECT_FLOAT_EQ(s.FontPx(), 48.0f);
  ASSERT_EQ(bw::app::SaveSettings(s.options, dir / "settings.json"), "");
  AppState t;
  t.ui.content_scale = 2.0f;
  ASSERT_EQ(bw::app::LoadSettings(t, dir / "settings.json"), "");
  EXPECT_FLOAT_EQ(t.options.font_px, 24.0f);  // not 48: a HiDPI launch does not grow it again
  EXPECT_EQ(t.options.export_dir, "/srv/exports");
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Issue 31, item 6: a truncated settings file, a wrong type or a top-level array was overwritten with
// the defaults (a warning on stderr at most). Now: the good fields are kept, the warning names the bad
// one, and the file as it was is kept as settings.json.bad before anything replaces it.
TEST(Settings, ABadFileIsKeptAsideAndItsGoodFieldsAreKept) {
  const fs::path dir = TempDir("settings-bad");
  const fs::path f = dir / "settings.json";
  const std::string wrong_type = R"({"lang": "en", "projector": true, "font_px": "big", "recent": ["/a.json", 7]})";
  std::ofstream(f) << wrong_type;
  AppState s;
  const std::string warn = bw::app::LoadSettings(s, f);
  EXPECT_NE(warn.find("/font_px: expected a number"), std::string::npos) << warn;
  EXPECT_NE(warn.find("(and 1 more)"), std::string::npos) << warn;
  EXPECT_NE(warn.find("settings.json.bad"), std::string::npos) << warn;
  EXPECT_EQ(s.options.lang, "en");
  EXPECT_TRUE(s.options.projector);
  EXPECT_EQ(s.options.font_px, AppState{}.options.font_px) << "the bad field keeps its default";
  EXPECT_EQ(s.options.recent, std::vector<std::string>{"/a.json"});
  EXPECT_EQ(Slurp(bw::app::SettingsAsidePath(f)), wrong_type) << "kept byte for byte";

  for (const std::string& text : {std::string(R"({"lang": "en", "projec)"), std::string("[1, 2]"), std::string("")}) {
    std::ofstream(f, std::ios::trunc) << text;
    AppState t;
    t.options.lang = "zh";
    const std::string w = bw::app::LoadSettings(t, f);
    EXPECT_FALSE(w.empty()) << "no word about \"" << text << "\"";
    EXPECT_EQ(t.options.lang, "zh") << "nothing of an unreadable file is used";
    EXPECT_EQ(Slurp(bw::app::SettingsAsidePath(f)), text);
  }
  fs::remove(f);
  fs::create_directory(f);  // a folder where the file should be
  AppState u;
  EXPECT_NE(bw::app::LoadSettings(u, f).find("is a folder"), std::string::npos);
}

// Issue 31, item 1: a recent file whose name is not UTF-8 aborted the app on its first frame
// (SaveSettings: nlohmann's type_error 316). It is saved without that entry; the rest round-trips.
TEST(Settings, AFileNameThatIsNotUtf8DoesNotStopTheSave) {
  const fs::path dir = TempDir("settings-latin1");
  AppState s;
  s.options.recent = {(dir / "caf\xE9.json").string(), "/ok/lesson.json"};
  s.options.export_dir = (dir / "expor\xE9").string();
  ASSERT_EQ(bw::app::SaveSettings(s.options, dir / "settings.json"), "");
  AppState t;
  ASSERT_EQ(bw::app::LoadSettings(t, dir / "settings.json"), "");
  EXPECT_EQ(t.options.recent, std::vector<std::string>{"/ok/lesson.json"});
  EXPECT_EQ(t.options.export_dir, AppState{}.options.export_dir);
}

TEST(Recent, AbsolutePathsOpenFromAnotherWorkingFolder) {
  Cwd restore;
  const fs::path a = TempDir("recent-a"), b = TempDir("recent-b");
  fs::copy_file(kRoot / "lessons" / "scenarios" / "worked_214.json", a / "溢出逻辑_全屏浏览.json");
  fs::current_path(a);
  AppState s;
  ASSERT_TRUE(bw::app::OpenFile(s, "溢出逻辑_全屏浏览.json")) << s.ui.error;
  ASSERT_FALSE(s.options.recent.empty());
  EXPECT_EQ(s.options.recent[0], (a / "溢出逻辑_全屏浏览.json").string());
  fs::current_path(b);
  AppState t;
  t.options.recent = s.options.recent;
  EXPECT_TRUE(bw::app::OpenFile(t, t.options.recent[0])) << t.ui.error;
}

TEST(SaveAs, SchemaIsRelativeToTheRealFolderAndTheFileValidates) {
  Cwd restore;
  const fs::path b = TempDir("save-b");
  AppState s;
  ASSERT_TRUE(bw::app::OpenFile(s, (kRoot / "lessons" / "scenarios" / "worked_214.json").string())) << s.ui.error;
  fs::current_path(b);
  fs::create_directories(b / "deep" / "er");
  fs::create_directory_symlink(b / "deep" / "er", b / "link");
  for (const std::string rel : {"saved.json", "deep/er/saved.json", "link/via-link.json"}) {
    ASSERT_EQ(bw::app::SaveScenarioAs(s, rel), "") << rel;
    const fs::path saved = b / rel;
    nlohmann::json j = nlohmann::json::parse(std::ifstream(saved));
    const std::string ref = j["$schema"];
    // Resolved from the folder the file really lies in (the symlink's target for link/…).
    const fs::path schema = fs::weakly_canonical(fs::canonical(saved).parent_path() / ref);
    EXPECT_TRUE(fs::equivalent(schema, kRoot / "schemas" / "scenario-v1.schema.json")) << rel << ": " << ref;
    EXPECT_EQ(s.options.recent[0], (b / rel).lexically_normal().string());
    // Loads back as the same scenario, and validates against its schema (python3-jsonschema).
    AppState t;
    EXPECT_TRUE(bw::app::OpenFile(t, saved.string())) << t.ui.error;
    const std::string cmd = "/usr/bin/python3 -c \"import json,sys,jsonschema,pathlib; p=pathlib.Path(sys.argv[1]).resolve(); d=json.load(open(p)); "
                            "jsonschema.validate(d, json.load(open(p.parent / d['\\$schema'])))\" '" + saved.string() + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << rel << " does not validate";
  }
}

TEST(Editor, ErrorsNameTheFieldAndHintAtQuotedInf) {
  // An unquoted -inf in the logits field: the error is about /logits, at the character in the field
  // (not "column 66" of a document the user never sees), with the hint.
  try {
    bw::app::ParseEditorList("1, -inf, 2", "logits");
    FAIL() << "unquoted -inf was accepted";
  } catch (const bw::data::LoadError& e) {
    EXPECT_EQ(e.file(), "(editor)");
    EXPECT_EQ(e.json_path(), "/logits");
    EXPECT_NE(e.reason().find("the field \"logits\""), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find("stopped at character 5"), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find("\"-inf\" in quotes"), std::string::npos) << e.reason();
  }
  EXPECT_TRUE(bw::app::NeedsMaskedHint("1, -inf, 2"));
  EXPECT_TRUE(bw::app::NeedsMaskedHint("NaN"));
  EXPECT_FALSE(bw::app::NeedsMaskedHint("1, \"-inf\", 2"));
  EXPECT_FALSE(bw::app::NeedsMaskedHint("1, 2e3"));
  EXPECT_EQ(bw::app::ParseEditorList("1, \"-inf\", 2", "logits").dump(), "[1,\"-inf\",2]");
  // 1e309 showed nlohmann's raw "[json.exception.out_of_range.406]" (issue 31); 1e-400 became 0.
  for (const auto& [typed, why] : {std::pair{"2, 1e309, 4", "out of the double range"}, std::pair{"2, 1e-400, 4", "too small for a double"}}) {
    try {
      bw::app::ParseEditorList(typed, "weights");
      ADD_FAILURE() << typed << " accepted";
    } catch (const bw::data::LoadError& e) {
      EXPECT_EQ(e.json_path(), "/weights/1") << typed;
      EXPECT_NE(e.reason().find(why), std::string::npos) << e.reason();
      EXPECT_EQ(std::string(e.what()).find("json.exception"), std::string::npos) << e.what();
    }
  }
  // A value the loader refuses points at the element of the field.
  bw::app::Editor ed;
  ed.scores = "2, -1, 4";
  ed.values = "10, 20, 30";
  ed.blocks = "2, 1";
  try {
    bw::view::ParseScenarioModel(bw::app::EditedDocument(ed, {}), "(editor)");
    FAIL() << "a negative weight was accepted";
  } catch (const bw::data::LoadError& e) {
    EXPECT_EQ(e.json_path(), "/weights/1");
  }
  ed.scores = "2, 1, 4";
  EXPECT_EQ(bw::view::ParseScenarioModel(bw::app::EditedDocument(ed, {}), "(editor)")->EventCount(),
            bw::view::ParseScenarioModel(nlohmann::json::parse(std::ifstream(kRoot / "lessons" / "scenarios" / "worked_214.json")),
                                         "worked_214.json")->EventCount());
}

}  // namespace

namespace bw::app {
namespace {

// The scene background is painted only where no opaque rectangle will cover it (painter.h): the
// pieces must be disjoint, inside the box, clear of every hole, and together cover every other
// point — checked on a grid of sample points for random holes (overlapping, touching, outside).
TEST(Painter, UncoveredPartsCoverExactlyWhatNoHoleCovers) {
  std::mt19937 rng(16);
  std::uniform_int_distribution<int> coord(-4, 44);
  for (int round = 0; round < 200; ++round) {
    const ImRect box(0, 0, 40, 30);
    std::vector<ImRect> holes;
    const int n = round % 7;
    for (int k = 0; k < n; ++k) {
      const int x0 = coord(rng), y0 = coord(rng), x1 = coord(rng), y1 = coord(rng);
      holes.emplace_back(static_cast<float>(std::min(x0, x1)), static_cast<float>(std::min(y0, y1)),
                         static_cast<float>(std::max(x0, x1) + 1), static_cast<float>(std::max(y0, y1) + 1));
    }
    const std::vector<ImRect> parts = UncoveredParts(box, holes);
    for (float y = 0.25f; y < 30; y += 0.5f)
      for (float x = 0.25f; x < 40; x += 0.5f) {
        const ImVec2 p(x, y);
        const bool in_hole = std::any_of(holes.begin(), holes.end(), [&](const ImRect& h) { return h.Contains(p); });
        const int in_parts = static_cast<int>(std::count_if(parts.begin(), parts.end(), [&](const ImRect& r) { return r.Contains(p); }));
        ASSERT_EQ(in_parts, in_hole ? 0 : 1) << "round " << round << " at " << x << ", " << y;
      }
    for (const ImRect& r : parts) ASSERT_TRUE(box.Contains(r)) << "round " << round;
  }
  EXPECT_EQ(UncoveredParts(ImRect(0, 0, 10, 10), {}).size(), 1u) << "no holes: the box itself";
  EXPECT_TRUE(UncoveredParts(ImRect(0, 0, 10, 10), {ImRect(-1, -1, 11, 11)}).empty());
  // One hole in the middle: a band above, two stretches beside it, a band below.
  EXPECT_EQ(UncoveredParts(ImRect(0, 0, 10, 10), {ImRect(3, 3, 6, 6)}).size(), 4u);
}

// FillAround (painter.h): with no hole one rounded rectangle; with holes, scissored copies of it on
// whole pixels that never reach into a hole (shrunk to whole pixels inside itself) and, with the
// holes, cover every pixel of the rectangle and its anti-aliased edge.
// An ImGui context without a window: a display of w × h and the default font atlas built.
ImGuiIO& HeadlessImGui(float w, float h) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(w, h);
  io.IniFilename = nullptr;
  unsigned char* tex = nullptr;
  int tw = 0, th = 0;
  io.Fonts->GetTexDataAsRGBA32(&tex, &tw, &th);
  return io;
}

TEST(Painter, FillAroundLeavesOutOnlyTheHoles) {
  HeadlessImGui(200, 200);
  ImGui::NewFrame();
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const ImVec2 a(10.3f, 20.6f), b(150.2f, 120.7f);
  const auto drawn = [&] {  // the commands FillAround added (clip rect, element count)
    std::vector<ImDrawCmd> out;
    for (const ImDrawCmd& c : dl->CmdBuffer)
      if (c.ElemCount > 0) out.push_back(c);
    return out;
  };
  FillAround(dl, a, b, IM_COL32(10, 20, 30, 255), 4.0f, {});
  ASSERT_EQ(drawn().size(), 1u);
  const unsigned one = drawn()[0].ElemCount;
  dl->_ResetForNewFrame();
  dl->PushClipRectFullScreen();

  const std::vector<ImRect> holes = {ImRect(30.5f, 40.2f, 80.7f, 90.9f), ImRect(90.0f, 30.0f, 140.0f, 60.0f), ImRect(500, 500, 600, 600)};
  FillAround(dl, a, b, IM_COL32(10, 20, 30, 255), 4.0f, holes);
  const auto cmds = drawn();
  ASSERT_GT(cmds.size(), 1u);
  std::vector<ImRect> snapped = {ImRect(31, 41, 80, 90), ImRect(90, 30, 140, 60)};
  for (const ImDrawCmd& c : cmds) {
    EXPECT_EQ(c.ElemCount, one) << "each piece draws the whole rounded rectangle";
    const ImRect clip(c.ClipRect.x, c.ClipRect.y, c.ClipRect.z, c.ClipRect.w);
    for (float v : {clip.Min.x, clip.Min.y, clip.Max.x, clip.Max.y}) EXPECT_EQ(v, std::floor(v)) << "scissors on whole pixels";
    for (const ImRect& h : snapped) {
      const ImRect overlap(std::max(clip.Min.x, h.Min.x), std::max(clip.Min.y, h.Min.y), std::min(clip.Max.x, h.Max.x), std::min(clip.Max.y, h.Max.y));
      EXPECT_TRUE(overlap.Min.x >= overlap.Max.x || overlap.Min.y >= overlap.Max.y) << "a piece reaches into a hole";
    }
  }
  // Every pixel centre of the rectangle's box (with its edge) lies in a piece or a hole.
  for (float y = std::floor(a.y) - 0.5f; y < b.y + 1; y += 1)
    for (float x = std::floor(a.x) - 0.5f; x < b.x + 1; x += 1) {
      const ImVec2 p(x, y);
      const bool in_hole = std::any_of(snapped.begin(), snapped.end(), [&](const ImRect& h) { return h.Contains(p); });
      const bool in_piece = std::any_of(cmds.begin(), cmds.end(), [&](const ImDrawCmd& c) {
        return ImRect(c.ClipRect.x, c.ClipRect.y, c.ClipRect.z, c.ClipRect.w).Contains(p);
      });
      ASSERT_TRUE(in_hole || in_piece) << x << ", " << y;
    }
  ImGui::EndFrame();
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace bw::app

namespace bw::app {
namespace {

// The first atlas holds the glyphs of the whole course: FolderTexts of one lesson lists the strings
// of the other lessons beside it and of their scenarios (so opening MOE after RC-T3 rebuilds nothing).
TEST(Glyphs, FolderTextsListTheOtherLessonsOfTheCourse) {
  FolderTextCache cache;
  const auto& texts = FolderTexts(cache, (kRoot / "lessons" / "rc-t3.json").string());
  const auto has = [&](const std::string& needle) {
    return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.find(needle) != std::string::npos; });
  };
  nlohmann::json moe = nlohmann::json::parse(std::ifstream(kRoot / "lessons" / "moe.json"));
  EXPECT_TRUE(has(moe["title"]["zh"].get<std::string>())) << "another lesson's title";
  nlohmann::json three = nlohmann::json::parse(std::ifstream(kRoot / "lessons" / "scenarios" / "three_blocks.json"));
  EXPECT_TRUE(has(three["title"]["zh"].get<std::string>())) << "a scenario's title";
  EXPECT_EQ(&FolderTexts(cache, (kRoot / "lessons" / "moe.json").string()), &texts) << "read once per folder";
  EXPECT_TRUE(FolderTexts(cache, (kRoot / "no-such-folder" / "x.json").string()).empty());
}

// Issue 31, items 2 and 3: a sibling file in a lesson's folder crashed every lesson there — nested
// 100 000 deep it overflowed the stack of FolderTexts' walk; holding \u0000 it ended the font's glyph
// ranges (an ImGui assert). Such files now add nothing, and the lesson's own texts are still listed.
TEST(Glyphs, AHostileSiblingFileCrashesNothing) {
  const fs::path dir = TempDir("hostile-folder");
  fs::copy_file(kRoot / "lessons" / "rc-t3.json", dir / "rc-t3.json");
  std::ofstream(dir / "deep.json") << std::string(100000, '[') << std::string(100000, ']');
  std::ofstream(dir / "nul.json") << R"({"t": "a\u0000b"})";
  std::ofstream(dir / "fine.json") << R"({"t": "乙丙丁"})";
  FolderTextCache cache;
  const auto& texts = FolderTexts(cache, (dir / "rc-t3.json").string());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "乙丙丁"), texts.end());
  for (const auto& t : texts) EXPECT_EQ(t.find('\0'), std::string::npos);
  // … and a text holding U+0000 that reaches the fonts another way still gets its atlas.
  ImGui::CreateContext();
  const Fonts fonts = LoadFonts(16.0f, {std::string("a\0b", 3), "甲"});
  EXPECT_TRUE(fonts.error.empty()) << fonts.error;
  ASSERT_NE(fonts.body, nullptr);
  EXPECT_TRUE(fonts.body->IsLoaded());
  EXPECT_NE(fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(0x7532)), nullptr) << "甲 baked";
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace bw::app

namespace bw::app {
namespace {

// The whole pixels ImGui's OpenGL3 backend scissors: glScissor((int)x0, (int)(fb_h − y1), (int)(x1 − x0),
// (int)(y1 − y0)) in bottom-up rows, here top-down. Worked by hand for fb_h = 200.
TEST(Damage, BackendScissorRoundsAsTheOpenGL3Backend) {
  // x: (int)10.5 = 10, width (int)90.25 = 90 → [10, 100); y: (int)(200 − 50.5) = 149, height (int)30.25
  // = 30 → GL rows [149, 179) → top-down [21, 51).
  EXPECT_EQ(BackendScissor(ImVec4(10.5f, 20.25f, 100.75f, 50.5f), ImVec2(0, 0), 200), (PixelRect{10, 21, 100, 51}));
  EXPECT_EQ(BackendScissor(ImVec4(0, 0, 64, 32), ImVec2(0, 0), 200), (PixelRect{0, 0, 64, 32}));
  EXPECT_EQ(BackendScissor(ImVec4(5, 5, 5, 9), ImVec2(0, 0), 200).Area(), 0);  // skipped by the backend
}

// JoinCells: every marked cell inside a rectangle, no two rectangles overlapping, at most max_rects.
TEST(Damage, JoinCellsCoversEveryMarkedCellWithDisjointRectangles) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const int cols = 1 + static_cast<int>(rng() % 40), rows = 1 + static_cast<int>(rng() % 30);
    const int max_rects = 1 + static_cast<int>(rng() % 8);
    std::vector<std::uint8_t> marked(static_cast<size_t>(cols * rows));
    const int blobs = static_cast<int>(rng() % 12);
    for (int b = 0; b < blobs; ++b) {  // a few rectangles and single cells
      const int x = static_cast<int>(rng() % cols), y = static_cast<int>(rng() % rows);
      const int w = 1 + static_cast<int>(rng() % 5), h = 1 + static_cast<int>(rng() % 4);
      for (int yy = y; yy < std::min(rows, y + h); ++yy)
        for (int xx = x; xx < std::min(cols, x + w); ++xx) marked[static_cast<size_t>(yy * cols + xx)] = 1;
    }
    const auto rects = JoinCells(marked, cols, rows, max_rects);
    EXPECT_LE(static_cast<int>(rects.size()), max_rects);
    EXPECT_EQ(rects.empty(), std::none_of(marked.begin(), marked.end(), [](std::uint8_t m) { return m != 0; }));
    for (size_t a = 0; a < rects.size(); ++a) {
      EXPECT_GT(rects[a].Area(), 0);
      for (size_t b = a + 1; b < rects.size(); ++b)
        EXPECT_TRUE(rects[a].x1 <= rects[b].x0 || rects[b].x1 <= rects[a].x0 || rects[a].y1 <= rects[b].y0 || rects[b].y1 <= rects[a].y0)
            << "round " << round << ": rectangles " << a << " and " << b << " overlap";
    }
    for (int y = 0; y < rows; ++y)
      for (int x = 0; x < cols; ++x) {
        if (!marked[static_cast<size_t>(y * cols + x)]) continue;
        EXPECT_TRUE(std::any_of(rects.begin(), rects.end(), [&](const PixelRect& r) { return x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1; }))
            << "round " << round << ": cell " << x << ", " << y << " left out";
      }
  }
}

// The tracker on draw data built by hand: two squares far apart; recolouring one repaints its cells
// only; an unchanged frame repaints nothing; an unknown age or a new size repaints everything; age 2
// compares with the frame before last. ClipDrawDataTo cuts commands to the rectangles on whole pixels,
// keeps only the triangles that reach them, and puts the commands back.
TEST(Damage, RepaintsOnlyTheCellsWhoseTrianglesChanged) {
  ImGuiIO& io = HeadlessImGui(640, 480);
  ImDrawList list(ImGui::GetDrawListSharedData());
  ImDrawList* lists[1] = {&list};
  ImDrawData dd;
  dd.Valid = true;
  dd.CmdLists = lists;
  dd.CmdListsCount = 1;
  dd.DisplayPos = ImVec2(0, 0);
  dd.DisplaySize = ImVec2(640, 480);
  dd.FramebufferScale = ImVec2(1, 1);
  const auto frame = [&](ImU32 second_colour) {
    list._ResetForNewFrame();
    list.PushClipRect(ImVec2(0, 0), ImVec2(640, 480));
    list.PushTextureID(io.Fonts->TexID);
    list.AddRectFilled(ImVec2(10, 10), ImVec2(50, 40), IM_COL32(200, 0, 0, 255));
    list.AddRectFilled(ImVec2(400.5f, 300.5f), ImVec2(450, 330), second_colour);
    list.PopTextureID();
    list.PopClipRect();
    list._PopUnusedDrawCmd();  // as ImGui::Render does
  };
  const auto describe = [](const ImDrawCmd&) { return CallbackEffect{}; };
  DamageTracker t;
  const PixelRect whole{0, 0, 640, 480};
  frame(IM_COL32(0, 0, 200, 255));
  t.Record(dd, 640, 480, 1, describe);
  EXPECT_EQ(t.Damage(0), std::vector<PixelRect>{whole});  // nothing known of the back buffer
  frame(IM_COL32(0, 0, 200, 255));
  t.Record(dd, 640, 480, 1, describe);
  EXPECT_TRUE(t.Damage(1).empty());  // the same picture
  frame(IM_COL32(0, 200, 0, 255));   // the second square recoloured
  t.Record(dd, 640, 480, 1, describe);
  const auto changed = t.Damage(1);
  ASSERT_EQ(changed.size(), 1u);
  const PixelRect c = changed[0];
  EXPECT_TRUE(c.x0 <= 399 && c.y0 <= 299 && c.x1 >= 451 && c.y1 >= 331) << "the square and its edge pixels";
  EXPECT_TRUE(c.x0 >= 384 && c.y0 >= 288 && c.x1 <= 464 && c.y1 <= 336) << "its cells only: " << c.x0 << "," << c.y0 << " " << c.x1 << "," << c.y1;
  frame(IM_COL32(0, 200, 0, 255));
  t.Record(dd, 640, 480, 1, describe);
  EXPECT_TRUE(t.Damage(1).empty());
  frame(IM_COL32(0, 200, 0, 255));
  t.Record(dd, 640, 480, 1, describe);
  EXPECT_EQ(t.Damage(3), std::vector<PixelRect>{changed[0]}) << "three frames ago it was blue";
  frame(IM_COL32(0, 200, 0, 255));
  t.Record(dd, 640, 480, 1, describe);
  EXPECT_TRUE(t.Damage(3).empty()) << "three frames ago it was green already";
  frame(IM_COL32(0, 200, 0, 255));
  t.Record(dd, 640, 480, 1, describe);
  EXPECT_EQ(t.Damage(4), std::vector<PixelRect>{whole}) << "older than the history";
  frame(IM_COL32(0, 200, 0, 255));
  t.Record(dd, 640, 480, 2, describe);
  EXPECT_EQ(t.Damage(1), std::vector<PixelRect>{whole}) << "a new seed (clear colour, atlas) changes every cell";
  frame(IM_COL32(0, 200, 0, 255));
  t.Record(dd, 600, 480, 2, describe);
  EXPECT_EQ(t.Damage(1), (std::vector<PixelRect>{{0, 0, 600, 480}})) << "a new size";

  // Cut to a rectangle round the second square: one command, its clip on whole pixels, only the
  // second square's triangles (a filled rectangle is two); then restored.
  ASSERT_EQ(list.CmdBuffer.Size, 1);
  const ImDrawCmd before = list.CmdBuffer[0];
  {
    const ClipDrawDataTo cut(dd, {PixelRect{384, 288, 480, 352}}, 480);
    ASSERT_EQ(list.CmdBuffer.Size, 1);
    const ImDrawCmd& k = list.CmdBuffer[0];
    EXPECT_EQ(k.ClipRect.x, 384.0f);
    EXPECT_EQ(k.ClipRect.y, 288.0f);
    EXPECT_EQ(k.ClipRect.z, 480.0f);
    EXPECT_EQ(k.ClipRect.w, 352.0f);
    EXPECT_EQ(k.ElemCount, 6u);
    EXPECT_EQ(k.IdxOffset, before.IdxOffset + 6);
  }
  {
    const ClipDrawDataTo cut(dd, {PixelRect{100, 100, 200, 200}}, 480);
    EXPECT_EQ(list.CmdBuffer.Size, 0) << "no triangle reaches the rectangle";
  }
  ASSERT_EQ(list.CmdBuffer.Size, 1);
  EXPECT_EQ(list.CmdBuffer[0].ElemCount, before.ElemCount);
  EXPECT_EQ(list.CmdBuffer[0].ClipRect.z, before.ClipRect.z);
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace bw::app

namespace bw::app {
namespace {

// A clicker in class: while a student's answer sits unchecked in the answer field (MASK/k1 asks for a
// number), PageDown first checks it (as Enter would) and the field lets go of the keyboard, so the
// next key is a shortcut again; the next PageDown reveals, and the stale "not right yet" goes. (A helper's clicker went dead
// there, and R and Space were typed into the field.) Keys no field types only: Space stays the field's.
TEST(Keys, TheClickerWorksWhileTheAnswerFieldHasTheKeyboard) {
  ImGuiIO& io = HeadlessImGui(1280, 720);
  AppState s;
  ASSERT_TRUE(OpenFile(s, (kRoot / "lessons" / "masks.json").string())) << s.ui.error;
  GoToStep(s, s.model.lesson->lesson.FindStep("MASK/k1"));
  ASSERT_TRUE(s.PredictPending());
  const Fonts fonts;  // ImGui's default font
  const auto frame = [&] {
    io.DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    HandleKeys(s);
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("lesson", nullptr, ImGuiWindowFlags_NoDecoration);
    DrawStepText(s, fonts);
    ImGui::End();
    ImGui::EndFrame();
  };
  frame();
  ASSERT_NE(s.ui.answer_field, 0u) << "MASK/k1 shows its answer field";
  const auto& box = s.ui.answer_field_box;  // the student clicks into it …
  io.MousePos = ImVec2((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  ASSERT_EQ(ImGui::GetActiveID(), s.ui.answer_field);
  io.AddInputCharacter('1');  // … and types 1, then a space: both the field's
  io.AddInputCharacter(' ');
  s.ui.keys.push_back({GLFW_KEY_SPACE, 0});  // (the same presses as the shortcut queue sees them)
  frame();
  frame();
  EXPECT_STREQ(s.ui.answer_typed.data(), "1 ");
  EXPECT_FALSE(s.ui.playing) << "Space went to the field";
  s.ui.keys.push_back({GLFW_KEY_PAGE_DOWN, 0});  // the clicker: first it checks what was typed …
  frame();
  EXPECT_FALSE(s.ui.revealed);
  EXPECT_EQ(s.ui.answer_verdict, static_cast<int>(view::CheckVerdict::kWrong)) << "1 is not the number of skipped tiles";
  EXPECT_STREQ(s.ui.answer_typed.data(), "1 ") << "the typed answer stays";
  EXPECT_NE(ImGui::GetActiveID(), s.ui.answer_field) << "the field let go of the keyboard";
  io.MousePos = ImVec2((box[0] + box[2]) / 2, (box[1] + box[3]) / 2);  // the student edits the answer …
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  ASSERT_EQ(ImGui::GetActiveID(), s.ui.answer_field);
  io.AddInputCharacter('6');
  frame();
  EXPECT_EQ(s.ui.answer_verdict, -1) << "an edited answer is not checked yet";
  s.ui.keys.push_back({GLFW_KEY_PAGE_DOWN, 0});  // … and the clicker checks it again
  frame();
  EXPECT_NE(s.ui.answer_verdict, -1);
  if (!s.ui.revealed) {  // (a right answer reveals at once)
    s.ui.keys.push_back({GLFW_KEY_PAGE_DOWN, 0});  // … then the clicker reveals
    frame();
  }
  EXPECT_TRUE(s.ui.revealed);
  EXPECT_NE(s.ui.answer_verdict, static_cast<int>(view::CheckVerdict::kWrong)) << "no stale 'not right yet' under the answer";
  EXPECT_NE(ImGui::GetActiveID(), s.ui.answer_field) << "the field let go of the keyboard";
  frame();
  s.ui.keys.push_back({GLFW_KEY_PAGE_DOWN, 0});
  frame();
  EXPECT_EQ(s.CurrentStep()->id, "MASK/k2");
  ImGui::DestroyContext();
}

// The start screen takes the keys only while it is shown: "mask", Enter and a PageDown in one batch
// (a slow frame, xdotool) open MASK and then step it — the PageDown is not a second Enter on the
// unfiltered list (a review found RC-T3 opened). A blanked screen stops playing, lets no key act
// behind it but B, '.' and F5, and its PageDown only brings the same step back.
// F5's one-screen warning asks for F5 again at once: any other key withdraws it, and the next F5
// warns again (a helper's F5 two steps after the warning opened the notes over the projection).
// Under Xvfb there is one monitor, as with a mirrored projector.
TEST(Keys, AnyOtherKeyWithdrawsF5sOneScreenWarning) {
  ImGuiIO& io = HeadlessImGui(1280, 720);
  AppState s;
  ASSERT_TRUE(OpenFile(s, (kRoot / "lessons" / "rc-t3.json").string())) << s.ui.error;
  const auto frame = [&] {
    io.DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    HandleKeys(s);
    ImGui::EndFrame();
  };
  TogglePresenter(s, 1);
  ASSERT_TRUE(s.ui.presenter_confirm);
  s.ui.keys.push_back({GLFW_KEY_PAGE_DOWN, 0});
  frame();
  EXPECT_FALSE(s.ui.presenter_confirm) << "PageDown withdrew the warning";
  EXPECT_NE(s.ui.status, view::UiText(view::Str::presenter_one_screen, s.options.lang));
  TogglePresenter(s, 1);
  EXPECT_FALSE(s.ui.presenter) << "the next F5 warns again, it does not open the notes";
  EXPECT_TRUE(s.ui.presenter_confirm);
}

// Blanked (B) on one screen, F5 shows nothing over the black picture the class sees: no warning
// toast (a walk-through saw it there), and neither that press nor a second opens the notes.
TEST(Keys, F5OnABlankedSingleScreenShowsNothing) {
  ImGuiIO& io = HeadlessImGui(1280, 720);
  AppState s;
  ASSERT_TRUE(OpenFile(s, (kRoot / "lessons" / "rc-t3.json").string())) << s.ui.error;
  const auto frame = [&] {
    io.DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    HandleKeys(s);
    ImGui::EndFrame();
  };
  s.ui.keys.push_back({GLFW_KEY_B, 0, 'b'});
  frame();
  ASSERT_TRUE(s.ui.blank);
  for (int press = 0; press < 2; ++press) {
    s.ui.keys.push_back({GLFW_KEY_F5, 0});
    frame();
    EXPECT_TRUE(s.ui.toast.empty()) << s.ui.toast;
    EXPECT_FALSE(s.ui.presenter_confirm);
    EXPECT_FALSE(s.ui.presenter) << "press " << press + 1;
  }
  EXPECT_TRUE(s.ui.blank);
  // Unblanked, F5 warns as before.
  s.ui.keys.push_back({GLFW_KEY_B, 0, 'b'});
  frame();
  s.ui.keys.push_back({GLFW_KEY_F5, 0});
  frame();
  EXPECT_TRUE(s.ui.presenter_confirm);
  EXPECT_EQ(s.ui.toast, view::UiText(view::Str::presenter_one_screen, s.options.lang));
  ImGui::DestroyContext();
}

// The timeline's label never sits on the slider's grab (DEC's 9 events: a grab 1/9 of the bar wide
// at the middle covered "5 / 9  every split merges its tile 2"); SliderIntGrab is ImGui's own grab.
TEST(Timeline, TheLabelStaysClearOfTheGrab) {
  HeadlessImGui(1920, 1080);
  ImGui::NewFrame();
  ImGui::Begin("t");
  const float x0 = 60, x1 = 1900;
  for (const int n : {2, 9, 48, 400})
    for (int v = 0; v < n; v += std::max(1, n / 17)) {
      int value = v, lo = 0, hi = n - 1;
      ImRect grab;
      ImGui::SliderBehavior(ImRect(x0, 1000, x1, 1030), ImGui::GetID("s"), ImGuiDataType_S32, &value, &lo, &hi, "%d", 0, &grab);
      const auto [g0, g1] = SliderIntGrab(x0, x1, v, n, ImGui::GetStyle().GrabMinSize);
      EXPECT_NEAR(g0, grab.Min.x, 1.0f) << n << " " << v;
      EXPECT_NEAR(g1, grab.Max.x, 1.0f) << n << " " << v;
      for (const float w : {300.0f, 700.0f}) {
        const TimelineLabelPlace at = PlaceTimelineLabel(x0, x1, g0, g1, w, 6);
        const float drawn = std::min(w, at.room);
        EXPECT_TRUE(at.x + drawn <= g0 + 0.5f || at.x >= g1 - 0.5f) << n << " " << v << " " << w;
        EXPECT_GE(at.x, x0);
        EXPECT_LE(at.x + drawn, x1 + 0.5f);
      }
    }
  // A long trace's thin grab away from the middle leaves the label centred.
  const auto [g0, g1] = SliderIntGrab(x0, x1, 0, 400, 10);
  EXPECT_FLOAT_EQ(PlaceTimelineLabel(x0, x1, g0, g1, 300, 6).x, (x0 + x1 - 300) * 0.5f);
  ImGui::End();
  ImGui::EndFrame();
  ImGui::DestroyContext();
}

TEST(Keys, TheStartScreenAndTheBlankScreenTakeOnlyTheirKeys) {
  ImGuiIO& io = HeadlessImGui(1280, 720);
  AppState s;
  ASSERT_TRUE(OpenFile(s, (kRoot / "lessons" / "course.json").string())) << s.ui.error;
  std::vector<std::string> files;
  for (const char* f : {"rc-t3.json", "masks.json", "n50-worked-example.json"}) files.push_back((kRoot / "lessons" / f).string());
  s.model.library = view::BuildLibrary(files, &*s.model.course);
  s.ui.show_library = true;
  const auto frame = [&] {
    io.DeltaTime = 1.0f / 60;
    ImGui::NewFrame();
    HandleKeys(s);
    ImGui::EndFrame();
  };
  for (const char c : std::string("mask")) io.AddInputCharacter(static_cast<unsigned>(c));
  s.ui.keys.push_back({GLFW_KEY_M, 0, 'm'});
  s.ui.keys.push_back({GLFW_KEY_ENTER, 0});
  s.ui.keys.push_back({GLFW_KEY_PAGE_DOWN, 0});
  frame();
  EXPECT_FALSE(s.ui.show_library);
  ASSERT_EQ(s.model.lesson->lesson.id, "MASK") << "the typed filter, then Enter";
  EXPECT_FALSE(s.OnTitleCard()) << "the PageDown after Enter left MASK's title card for its first step";
  EXPECT_EQ(s.CurrentStep()->id, "MASK/k1");
  EXPECT_EQ(s.ui.library_filter, "");
  // Blank while playing: playing stops, → and R do nothing unseen, PageDown brings MASK/k1 back.
  s.ui.keys.push_back({GLFW_KEY_RIGHT, 0});
  frame();
  const int event = s.ui.event;
  TogglePlay(s);
  ASSERT_TRUE(s.ui.playing);
  s.ui.keys.push_back({GLFW_KEY_B, 0, 'b'});
  frame();
  EXPECT_TRUE(s.ui.blank);
  EXPECT_FALSE(s.ui.playing) << "nothing moves on behind the black screen";
  s.ui.keys.push_back({GLFW_KEY_RIGHT, 0});
  s.ui.keys.push_back({GLFW_KEY_R, 0, 'r'});
  frame();
  EXPECT_EQ(s.ui.event, event);
  EXPECT_FALSE(s.ui.revealed);
  s.ui.keys.push_back({GLFW_KEY_PAGE_DOWN, 0});
  frame();
  EXPECT_FALSE(s.ui.blank);
  EXPECT_EQ(s.CurrentStep()->id, "MASK/k1");
  EXPECT_FALSE(s.ui.revealed) << "the PageDown that unblanks does not also reveal";
  s.ui.keys.push_back({GLFW_KEY_PERIOD, 0, '.'});
  frame();
  EXPECT_TRUE(s.ui.blank);
  s.ui.keys.push_back({GLFW_KEY_PERIOD, 0, '.'});
  frame();
  EXPECT_FALSE(s.ui.blank);
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace bw::app
