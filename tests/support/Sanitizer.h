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
#include <QHash>
#include <QTest>

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

#if defined(POSENC_TEST_ASAN) || defined(POSENC_TEST_TSAN)
inline constexpr bool kUnderSanitizer = true;
#else
inline constexpr bool kUnderSanitizer = false;
#endif

// Whether this run takes a sanitizer run's sample of the rows: under a sanitizer, or in a build
// without one when POSENC_SANITIZER_SAMPLE is set in the environment (the rows only, not
// kUnderSanitizer's smaller sizes): to time a sanitizer run's rows, or to see which rows it takes,
// in a release build.
inline bool takesSanitizerSample()
{
    static const bool sampled = kUnderSanitizer || qEnvironmentVariableIsSet("POSENC_SANITIZER_SAMPLE");
    return sampled;
}

// Whether a sanitizer run leaves the current data row out. A test function over a product of many
// data rows (sizes x widths x layouts x ...) runs a third of them under a sanitizer, the same third
// each run, chosen by a hash of the row's name: the sanitizers still see every code path the
// function reaches, at a third of its cost, and the release suite runs every row (CI's time:
// docs/ARCHITECTURE.md, Tests).
inline bool leftOutUnderSanitizer()
{
    if (!takesSanitizerSample())
        return false;
    const char *tag = QTest::currentDataTag();
    return tag != nullptr && qHash(QByteArrayView(tag), 0) % 3 != 0;
}

// Whether a sanitizer run leaves the current row out, the rows chosen by their role rather than
// by a hash: a test function whose few rows are each a costly case of a class (long or short,
// float32 or float64 angles, ...) runs under a sanitizer the rows for which `kept` holds, chosen
// in the test so that every class is among them; a hash's third of a few rows could hold none of
// a class, or no row at all.
inline bool sampledOutUnderSanitizer(bool kept)
{
    return takesSanitizerSample() && !kept;
}

} // namespace testing

// The first line of such a test function.
#define POSENC_SAMPLE_UNDER_SANITIZER()                                                                                \
    do {                                                                                                               \
        if (testing::leftOutUnderSanitizer())                                                                          \
            QSKIP("a sanitizer run takes a third of this function's rows; the release suite runs them all");           \
    } while (false)

// The first lines of a test function whose rows are each a case of their own, made at a small size
// and again at a large one (`large`, the fetched row's size): under a sanitizer every case runs at
// the small size and a fixed third of them at the large one, so every case's code path is still
// seen under the sanitizer at a fraction of its cost.
#define POSENC_SAMPLE_LARGE_UNDER_SANITIZER(large)                                                                     \
    do {                                                                                                               \
        if ((large) && testing::leftOutUnderSanitizer())                                                               \
            QSKIP("a sanitizer run takes every case small and a third of them large; the release suite runs all");     \
    } while (false)

// After the QFETCHes of a test function of a few costly rows: under a sanitizer only the rows for
// which `kept` holds run, every class of case among them (testing::sampledOutUnderSanitizer).
#define POSENC_UNDER_SANITIZER_ONLY_ROWS_WHERE(kept)                                                                   \
    do {                                                                                                               \
        if (testing::sampledOutUnderSanitizer(kept))                                                                   \
            QSKIP("a sanitizer run takes the rows that reach each class of case; the release suite runs them all");    \
    } while (false)
