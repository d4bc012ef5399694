// Runs two pieces of loading work at once (the machines we target have at least two cores).
#pragma once

#include <exception>
#include <thread>

namespace textedge::detail {

// Calls first() on this thread and second() on another, and waits for both. An exception from
// either is rethrown after both finished (first()'s wins when both throw).
template <class First, class Second>
void run_in_parallel(First&& first, Second&& second) {
  std::exception_ptr second_error;
  std::thread helper([&] {
    try {
      second();
    } catch (...) {
      second_error = std::current_exception();
    }
  });
  try {
    first();
  } catch (...) {
    helper.join();
    throw;
  }
  helper.join();
  if (second_error) std::rethrow_exception(second_error);
}

}  // namespace textedge::detail
