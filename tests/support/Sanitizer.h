#pragma once

// Which sanitizer a test runs under. GCC names it with __SANITIZE_ADDRESS__ and
// __SANITIZE_THREAD__, Clang with __has_feature; the sanitizer presets build with Clang, a
// hand-made sanitizer build may use GCC, and a test must know either way:
// - ThreadSanitizer runs a test many times slower (every memory access is checked against the
//   others), so the tests the tsan preset runs take smaller tables under it. The threading they
//   check is the same at any size: a table of a few hundred rows is still cut into several
//   tiles a thread.
// - AddressSanitizer's shadow memory, redzones and quarantine count in a process's peak memory
//   and its address space.
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#define POSENC_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POSENC_TEST_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define POSENC_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define POSENC_TEST_TSAN 1
#endif
#endif

namespace testing {

#if defined(POSENC_TEST_TSAN)
inline constexpr bool kUnderThreadSanitizer = true;
#else
inline constexpr bool kUnderThreadSanitizer = false;
#endif

// `n` as it is, or a quarter of it under ThreadSanitizer.
inline constexpr std::int64_t sized(std::int64_t n)
{
    return kUnderThreadSanitizer ? n / 4 : n;
}

} // namespace testing
