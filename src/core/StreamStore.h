#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE__)
#include <immintrin.h>
#endif

namespace posenc {

// Copies a computed row to its destination without reading the destination's cache lines
// first (non-temporal stores), for outputs far larger than the caches. Falls back to memcpy
// where the destination is not 16-byte aligned or the CPU has no streaming stores.
inline void streamCopy(float *dst, const float *src, std::int64_t count)
{
#if defined(__SSE__)
    std::int64_t i = 0;
    while (i < count && (reinterpret_cast<std::uintptr_t>(dst + i) & 15u) != 0) {
        dst[i] = src[i];
        ++i;
    }
    for (; i + 4 <= count; i += 4)
        _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
    for (; i < count; ++i)
        dst[i] = src[i];
#else
    std::memcpy(dst, src, static_cast<std::size_t>(count) * sizeof(float));
#endif
}

// Fills `count` floats with `value` through non-temporal stores where the CPU has them.
inline void streamFill(float *dst, float value, std::int64_t count)
{
#if defined(__SSE__)
    std::int64_t i = 0;
    while (i < count && (reinterpret_cast<std::uintptr_t>(dst + i) & 15u) != 0)
        dst[i++] = value;
    const __m128 v = _mm_set1_ps(value);
    for (; i + 4 <= count; i += 4)
        _mm_stream_ps(dst + i, v);
    for (; i < count; ++i)
        dst[i] = value;
#else
    std::fill_n(dst, count, value);
#endif
}

// Orders the streaming stores above before anything that follows.
inline void streamFence()
{
#if defined(__SSE__)
    _mm_sfence();
#endif
}

} // namespace posenc
