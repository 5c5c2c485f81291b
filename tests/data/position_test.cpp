// The lesson position grammar (data/position.h): round trips, strictness, the help text and the
// schema's pattern, which must be PositionPattern() exactly.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "data/position.h"

namespace bw::data {
namespace {

using engine::Tensor;

const char* const kGood[] = {
    "start", "end", "write", "compute", "ep:dispatch", "ep:compute", "ep:combine", "cpu_gpu", "event:1",
    "event:12", "load:2", "update:3", "token:3", "cpu_gpu:token:2", "tile:2,3", "tile:10,1", "read:K",
    "read:K:2", "write:O", "write:O:1", "compute:S", "read:dO:3", "write:dV:1", "compute:P", "bwd:start",
    "bwd:end", "bwd:tile:1,2", "bwd:read:K:1", "bwd:write:dV:1", "bwd:compute:D", "event:999999999"};

const char* const kBad[] = {
    "", "Start", "start ", " start", "end:1", "write:", "compute:", "event", "event:", "event:0", "event:01",
    "event:+3", "event:-3", "event: 3", "event:3 ", "event:3x", "event:1000000000", "event:99999999999999999999",
    "tile:0,1", "tile:1,0", "tile:1", "tile:1,", "tile:,1", "tile:1,2,3", "tile:+1,2", "tile:1, 2", "tile:1,2x",
    "read:", "read:X", "read:k", "read:K:", "read:K:0", "read:K:2x", "read:K:1:2", "compute:S:1", "token:0",
    "cpu_gpu:token", "cpu_gpu:token:", "cpu_gpu:3", "ep:", "ep:other", "bwd:", "bwd:write", "bwd:compute",
    "bwd:event:3", "bwd:load:1", "bwd:update:1", "bwd:token:1", "bwd:ep:dispatch", "bwd:cpu_gpu",
    "bwd:bwd:start", "load:1\n"};

TEST(Position, ParsesEveryFormAndFormatsItBack) {
  for (const char* s : kGood) {
    SCOPED_TRACE(s);
    const auto p = ParsePosition(s);
    ASSERT_TRUE(p);
    EXPECT_EQ(FormatPosition(*p), s);
    EXPECT_EQ(ParsePosition(FormatPosition(*p)), p);
  }
}

TEST(Position, ReadsTheNumbersAndTheTensor) {
  EXPECT_EQ(ParsePosition("tile:2,3"), (Position{PositionForm::kTile, false, 2, 3}));
  EXPECT_EQ(ParsePosition("bwd:write:dV:1"), (Position{PositionForm::kWriteTensor, true, 1, 0, Tensor::kdV}));
  EXPECT_EQ(ParsePosition("write:O"), (Position{PositionForm::kWriteTensor, false, 0, 0, Tensor::kO}));
  EXPECT_EQ(ParsePosition("write"), (Position{PositionForm::kWrite}));
  EXPECT_EQ(ParsePosition("cpu_gpu:token:2"), (Position{PositionForm::kCpuGpuToken, false, 2}));
  EXPECT_EQ(ParsePosition("event:999999999"), (Position{PositionForm::kEvent, false, kMaxPositionNumber}));
}

// Strict: the whole string, numbers 1-based without sign, '+' or leading zero, no overflow, known
// tensors, "bwd:" only before the forms of the backward pass. 0 is no position ("tile:0,1"): the
// grammar refuses it, as the schema does; a number past the trace's end is the model's to refuse.
TEST(Position, RefusesWhatIsNoPosition) {
  for (const char* s : kBad) EXPECT_FALSE(ParsePosition(s)) << '"' << s << '"';
  EXPECT_FALSE(ParsePosition(std::string_view("load:1\0", 7)));
}

TEST(Position, EveryFormOnceInTheTableInOrder) {
  const auto& specs = PositionFormSpecs();
  ASSERT_EQ(specs.size(), static_cast<size_t>(PositionForm::kCount));
  for (size_t i = 0; i < specs.size(); ++i) EXPECT_EQ(static_cast<size_t>(specs[i].form), i);
}

TEST(Position, HelpNamesEveryAcceptedFormWithItsRange) {
  const std::vector<AcceptedPosition> accepted = {{PositionForm::kStart},
                                                  {PositionForm::kEvent, false, 42},
                                                  {PositionForm::kTile, false, 3, 2},
                                                  {PositionForm::kRead},
                                                  {PositionForm::kTile, true, 3, 2}};
  const std::string help = PositionHelp(accepted);
  EXPECT_EQ(help, "start, event:N (1\u202642), tile:I,J (I \u2264 3, J \u2264 2), read:T[:I], "
                  "bwd:tile:I,J (I \u2264 3, J \u2264 2); T one of Q K V S P O L m l D dO dP dS dQ dK dV");
  EXPECT_TRUE(Accepts(accepted, *ParsePosition("bwd:tile:1,1")));
  EXPECT_FALSE(Accepts(accepted, *ParsePosition("bwd:start")));
  // The whole grammar in words names every form.
  const std::string forms = PositionForms();
  for (const auto& f : PositionFormSpecs()) {
    EXPECT_NE(forms.find(f.name), std::string::npos) << f.name;
    std::vector<AcceptedPosition> one = {{f.form}};
    EXPECT_NE(forms.find(PositionHelp(one).substr(0, PositionHelp(one).find(';'))), std::string::npos) << f.name;
  }
}

TEST(Position, TheSchemaPatternIsTheGrammars) {
  std::ifstream in(std::string(BLOCKWISE_ROOT) + "/schemas/lesson-v1.schema.json");
  ASSERT_TRUE(in);
  const auto schema = nlohmann::json::parse(in);
  const auto pattern = schema.at(nlohmann::json::json_pointer("/$defs/step/properties/position/pattern")).get<std::string>();
  EXPECT_EQ(pattern, PositionPattern()) << "copy into schemas/lesson-v1.schema.json: " << nlohmann::json(PositionPattern());
  // And the pattern gives the parser's verdict (ECMAScript, as JSON Schema's regexes).
  const std::regex re(PositionPattern(), std::regex::ECMAScript);
  for (const char* s : kGood) EXPECT_TRUE(std::regex_search(s, re)) << s;
  for (const char* s : kBad) EXPECT_FALSE(std::regex_search(s, re)) << '"' << s << '"';
}

}  // namespace
}  // namespace bw::data
