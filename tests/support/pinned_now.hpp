// The time strftime_now() formats in the goldens: PINNED_NOW of tools/reference/jinja_env.py, which
// writes it in the goldens' meta line ("now") so that tests can check both sides agree.
#pragma once

#include <ctime>

inline constexpr const char* kPinnedNowIso = "2026-01-15T10:30:00";

inline std::tm pinned_now() {
  std::tm tm{};
  tm.tm_year = 2026 - 1900;
  tm.tm_mon = 0;
  tm.tm_mday = 15;
  tm.tm_hour = 10;
  tm.tm_min = 30;
  tm.tm_wday = 4;  // a Thursday
  tm.tm_yday = 14;
  return tm;
}
