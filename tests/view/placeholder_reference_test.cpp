// The placeholder reference (issue 32): docs/placeholders.md is the table, every name a shipped
// scenario offers at its first, middle and last event has a row of its kind, and the forms
// ({name|fraction}, {name|decimal}) give what the page says.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "view/lesson_text.h"
#include "view/placeholder_reference.h"
#include "view/scenario_model.h"

namespace bw::view {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = BLOCKWISE_ROOT;

TEST(PlaceholderReference, TheDocsPageIsTheTable) {
  std::ifstream in(kRoot + "/docs/placeholders.md", std::ios::binary);
  ASSERT_TRUE(in) << "docs/placeholders.md is missing: blockwise-cli placeholders --reference > docs/placeholders.md";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), PlaceholderReferenceMarkdown())
      << "docs/placeholders.md differs from the table: blockwise-cli placeholders --reference > docs/placeholders.md";
}

TEST(PlaceholderReference, EveryNameAShippedScenarioOffersHasARowOfItsKind) {
  std::set<std::string> used;   // patterns some shipped scenario produces
  int files = 0;
  for (const char* dir : {"/lessons/scenarios", "/assets/scenarios", "/lessons/examples/scenarios"}) {
    if (!fs::exists(kRoot + dir)) continue;
    for (const auto& f : fs::directory_iterator(kRoot + dir)) {
      if (f.path().extension() != ".json") continue;
      const auto m = LoadScenarioModel(f.path());
      ++files;
      const int n = m->EventCount();
      for (int e : {0, n / 2, n - 1})
        for (const auto& [name, value] : m->QuantitiesAt(e)) {
          const PlaceholderDoc* d = FindPlaceholderDoc(m->Kind(), name);
          if (!d) ADD_FAILURE() << f.path().filename() << " (" << m->Kind() << ") offers {" << name << "} = " << value
                                << ", which has no row in src/view/placeholder_reference.cpp";
          else used.insert(std::string(d->kind) + " " + d->pattern);
        }
    }
  }
  EXPECT_GE(files, 20);
  // Most rows are exercised by a shipped file (the rest are quantities of options no shipped file uses).
  EXPECT_GE(used.size() * 10, PlaceholderDocs().size() * 8) << used.size() << " of " << PlaceholderDocs().size();
}

TEST(PlaceholderReference, PatternsMatchTheirNamesAndNothingElse) {
  EXPECT_STREQ(FindPlaceholderDoc("single_query", "m@3")->pattern, "m@J");
  EXPECT_STREQ(FindPlaceholderDoc("single_query", "m_b@12")->pattern, "m_b@J");
  EXPECT_STREQ(FindPlaceholderDoc("single_query", "m")->pattern, "m");
  EXPECT_STREQ(FindPlaceholderDoc("attention", "O[2,13]")->pattern, "O[I,J]");
  EXPECT_STREQ(FindPlaceholderDoc("attention", "reads:dQ")->pattern, "reads:TENSOR");
  EXPECT_STREQ(FindPlaceholderDoc("attention", "bwd_recompute_reads:P")->pattern, "bwd_recompute_reads:TENSOR");
  EXPECT_STREQ(FindPlaceholderDoc("moe", "demand:8")->pattern, "demand:E");
  for (const auto& [kind, name] : std::vector<std::pair<std::string, std::string>>{
           {"single_query", "m@"}, {"single_query", "m@x"}, {"single_query", "m@1x"}, {"single_query", "mm"},
           {"attention", "O[2]"}, {"attention", "O[2,]"}, {"attention", "reads:"}, {"attention", "m"}, {"chart", "output"}})
    EXPECT_EQ(FindPlaceholderDoc(kind, name), nullptr) << kind << " " << name;
}

TEST(PlaceholderReference, FormsGiveTheFractionOrTheDecimalAlone) {
  const Quantities q = {{"output", "160/7 \u2248 22.86"}, {"u", "40"}, {"vec", "(160/7 \u2248 22.86, 3, \u22121/2 \u2248 \u22120.5)"},
                        {"share", "2/5"}, {"m", "ln 2"}};
  EXPECT_EQ(*LookupPlaceholder(q, "output"), "160/7 \u2248 22.86");
  EXPECT_EQ(*LookupPlaceholder(q, "output|fraction"), "160/7");
  EXPECT_EQ(*LookupPlaceholder(q, "output|decimal"), "22.86");
  EXPECT_EQ(*LookupPlaceholder(q, "u|fraction"), "40");
  EXPECT_EQ(*LookupPlaceholder(q, "u|decimal"), "40");
  EXPECT_EQ(*LookupPlaceholder(q, "vec|fraction"), "(160/7, 3, \u22121/2)");
  EXPECT_EQ(*LookupPlaceholder(q, "vec|decimal"), "(22.86, 3, \u22120.5)");
  EXPECT_EQ(*LookupPlaceholder(q, "share|decimal"), "0.4");
  EXPECT_EQ(*LookupPlaceholder(q, "share|fraction"), "2/5");
  EXPECT_EQ(*LookupPlaceholder(q, "m|decimal"), "ln 2");
  EXPECT_FALSE(LookupPlaceholder(q, "output|frac"));
  EXPECT_FALSE(LookupPlaceholder(q, "output|"));
  EXPECT_FALSE(LookupPlaceholder(q, "nope|decimal"));
  const FilledText f = FillPlaceholders("O = {output|fraction} ({output|decimal}); {output|x}", q);
  EXPECT_EQ(f.text, "O = 160/7 (22.86); {output|x?}");
  EXPECT_EQ(f.unknown, std::vector<std::string>{"output|x"});
}

TEST(PlaceholderReference, NearestNameSuggestsOnlyWhatIsNear) {
  const std::vector<std::string> names = {"output", "output_so_far", "u", "l", "m", "alpha@2", "average"};
  EXPECT_EQ(NearestName(names, "outptu"), "output");
  EXPECT_EQ(NearestName(names, "out"), "output");   // the shortest name it begins
  // Of names as near, the block number nearest ("l@4" on three blocks meant l@3: a new author's try).
  EXPECT_EQ(NearestName({"l@1", "l@2", "l@3", "u@1"}, "l@4"), "l@3");
  EXPECT_EQ(NearestName({"l@3", "l@1"}, "l@2"), "l@3");   // a tie of numbers too: the first
  EXPECT_EQ(NearestName(names, "ou"), "u");          // one edit
  EXPECT_EQ(NearestName(names, "zq"), "");
  EXPECT_EQ(NearestName(names, "alpha_2"), "alpha@2");
  EXPECT_EQ(NearestName(names, "averge"), "average");
  EXPECT_EQ(NearestName(names, "zzzzzzzz"), "");
}

}  // namespace
}  // namespace bw::view
