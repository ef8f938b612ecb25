#pragma once

// ThreadSanitizer runs a test many times slower (every memory access is checked against the
// others), so the tests the tsan preset runs take smaller tables under it. The threading they
// check is the same at any size: a table of a few hundred rows is still cut into several
// tiles a thread.
#include <cstdint>

namespace testing {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool kUnderThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kUnderThreadSanitizer = true;
#else
inline constexpr bool kUnderThreadSanitizer = false;
#endif
#else
inline constexpr bool kUnderThreadSanitizer = false;
#endif

// `n` as it is, or a quarter of it under ThreadSanitizer.
inline constexpr std::int64_t sized(std::int64_t n)
{
    return kUnderThreadSanitizer ? n / 4 : n;
}

} // namespace testing
