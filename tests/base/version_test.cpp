// version.hpp comes from the one version in CMakeLists.txt: macros, the number and the linked
// library's version() agree with it.
#include "textedge/version.hpp"

#include <gtest/gtest.h>

#include <string>

TEST(Version, MacrosAndFunctionCarryCMakeListsVersion) {
  EXPECT_STREQ(TEXTEDGE_VERSION_STRING, TEXTEDGE_PROJECT_VERSION);
  EXPECT_STREQ(textedge::version(), TEXTEDGE_PROJECT_VERSION);
  std::string parts = std::to_string(TEXTEDGE_VERSION_MAJOR) + "." + std::to_string(TEXTEDGE_VERSION_MINOR) + "." +
                      std::to_string(TEXTEDGE_VERSION_PATCH);
  EXPECT_EQ(parts, TEXTEDGE_PROJECT_VERSION);
  EXPECT_EQ(TEXTEDGE_VERSION, TEXTEDGE_VERSION_MAJOR * 10000 + TEXTEDGE_VERSION_MINOR * 100 + TEXTEDGE_VERSION_PATCH);
  static_assert(TEXTEDGE_VERSION >= 200, "find_package(textedge 0.2) must accept this version");
}
