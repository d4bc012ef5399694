// SmallVector (src/base/small_vector.hpp): items inline up to N, then on the heap, with the
// values' reference counts intact through every copy, move and growth.
#include "base/small_vector.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace textedge::detail::jinja {
namespace {

using Strings = SmallVector<std::shared_ptr<std::string>, 2>;

std::shared_ptr<std::string> text(const char* s) { return std::make_shared<std::string>(s); }

std::string joined(const Strings& v) {
  std::string out;
  for (auto& s : v) out += *s + ",";
  return out;
}

TEST(SmallVector, GrowsFromInlineToHeapKeepingItems) {
  Strings v;
  auto shared = text("a");
  for (const char* s : {"b", "c", "d", "e"}) {
    v.push_back(shared);
    v.emplace_back(text(s));
  }
  EXPECT_EQ(v.size(), 8u);
  EXPECT_EQ(joined(v), "a,b,a,c,a,d,a,e,");
  EXPECT_EQ(shared.use_count(), 5);
  v.clear();
  EXPECT_EQ(shared.use_count(), 1);
  EXPECT_TRUE(v.empty());
}

TEST(SmallVector, PushingACopyOfItsOwnItemWhileGrowing) {
  Strings v{text("x"), text("y")};  // full inline: the next push moves every item
  v.push_back(v[0]);  // grows to 4
  v.push_back(v[1]);
  v.push_back(v[3]);  // grows to 8
  EXPECT_EQ(joined(v), "x,y,x,y,y,");
}

TEST(SmallVector, CopiesAndMovesInlineAndHeapItems) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 7u}) {
    Strings v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(text(std::to_string(i).c_str()));
    std::string expected = joined(v);
    Strings copy = v;
    EXPECT_EQ(joined(copy), expected);
    EXPECT_EQ(joined(v), expected);
    Strings moved = std::move(copy);
    EXPECT_EQ(joined(moved), expected);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): a moved-from vector is empty
    Strings assigned{text("old")};
    assigned = std::move(moved);
    EXPECT_EQ(joined(assigned), expected);
    assigned = v;
    EXPECT_EQ(joined(assigned), expected);
    if (n) EXPECT_EQ(v[0].use_count(), 2);
  }
}

TEST(SmallVector, AssignAndReserve) {
  Strings v{text("a")};
  Strings other{text("p"), text("q"), text("r")};
  v.assign(other.begin() + 1, other.end());
  EXPECT_EQ(joined(v), "q,r,");
  v.reserve(10);
  EXPECT_EQ(joined(v), "q,r,");
  v = {text("s")};
  EXPECT_EQ(joined(v), "s,");
  EXPECT_EQ(other[1].use_count(), 1);
}

}  // namespace
}  // namespace textedge::detail::jinja
