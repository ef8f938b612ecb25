#pragma once

#include <Random123/philox.h>

#include <algorithm>
#include <array>
#include <cstdint>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace posenc {

// Counter-based random streams from Random123's Philox4x32-10. A draw is a pure function of
// (seed, stream, position, group of four columns): the same seed gives the same numbers
// whatever the thread count, the block computed or the window shown.
enum class RandomStream : std::uint32_t {
    Embedding = 0x454d4244u,
    Dropout = 0x44524f50u,
    DropoutLowBits = 0x44524f4cu
};

class CellRandom
{
public:
    CellRandom(std::uint64_t seed, RandomStream stream)
        : m_key {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}}
        , m_stream(static_cast<std::uint32_t>(stream))
    { }

    // Four 32-bit words for columns 4*group .. 4*group + 3 of row `position`.
    std::array<std::uint32_t, 4> words(std::int64_t position, std::int64_t group) const
    {
        const r123::Philox4x32::ctr_type counter {{static_cast<std::uint32_t>(position),
                                                   static_cast<std::uint32_t>(position >> 32),
                                                   static_cast<std::uint32_t>(group), m_stream}};
        const auto out = r123::Philox4x32()(counter, m_key);
        return {out[0], out[1], out[2], out[3]};
    }

    // The words of `count` consecutive groups from `group0`, 4 per group, into `out`. Where
    // the CPU has AVX-512, 64 counters go through the rounds at once; elsewhere Random123
    // computes them (tst_philox checks both against Random123's own philox4x32).
    void fill(std::int64_t position, std::int64_t group0, std::int64_t count, std::uint32_t *out) const
    {
        std::int64_t i = 0;
#if defined(__AVX512F__)
        for (; i + 16 * kBatches <= count; i += 16 * kBatches) {
            Lanes lanes[kBatches];
            for (int b = 0; b < kBatches; ++b)
                lanes[b]
                    = counters(position,
                               _mm512_add_epi32(
                                   _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(group0 + i + 16 * b))),
                                   _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
            rounds<kBatches>(lanes);
            for (int b = 0; b < kBatches; ++b)
                store(lanes[b], out + 4 * (i + 16 * b));
        }
#endif
        for (; i < count; ++i)
            storeWords(words(position, group0 + i), out + 4 * i);
    }

    // The words of `count` arbitrary groups of one row, groups[k] -> out[4k .. 4k + 3]: sixteen
    // at a time where the CPU has AVX-512.
    void gather(std::int64_t position, const std::uint32_t *groups, std::int64_t count, std::uint32_t *out) const
    {
        std::int64_t i = 0;
#if defined(__AVX512F__)
        for (; i + 16 <= count; i += 16) {
            Lanes lanes[1] = {counters(position, _mm512_loadu_si512(groups + i))};
            rounds<1>(lanes);
            store(lanes[0], out + 4 * i);
        }
        if (i < count) {
            const auto rest = static_cast<__mmask16>((1u << (count - i)) - 1u);
            Lanes lanes[1] = {counters(position, _mm512_maskz_loadu_epi32(rest, groups + i))};
            rounds<1>(lanes);
            alignas(64) std::uint32_t words[64];
            store(lanes[0], words);
            std::copy(words, words + 4 * (count - i), out + 4 * i);
            i = count;
        }
#endif
        for (; i < count; ++i)
            storeWords(words(position, groups[i]), out + 4 * i);
    }

private:
    static void storeWords(const std::array<std::uint32_t, 4> &w, std::uint32_t *out)
    {
        for (int k = 0; k < 4; ++k)
            out[k] = w[k];
    }

#if defined(__AVX512F__)
    // Philox4x32-10 (Salmon et al., SC11) with one counter per register lane: word k of the
    // sixteen counters is in ck.
    struct Lanes
    {
        __m512i c0, c1, c2, c3;
    };
    // Independent batches hide the latency of each round's multiplications.
    static constexpr int kBatches = 4;

    Lanes counters(std::int64_t position, __m512i groups) const
    {
        return {_mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(position))),
                _mm512_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(position >> 32))), groups,
                _mm512_set1_epi32(static_cast<int>(m_stream))};
    }

    template<int Batches> void rounds(Lanes (&lanes)[Batches]) const
    {
        const __m512i multiplier0 = _mm512_set1_epi32(static_cast<int>(PHILOX_M4x32_0));
        const __m512i multiplier1 = _mm512_set1_epi32(static_cast<int>(PHILOX_M4x32_1));
        const __m512i bump0 = _mm512_set1_epi32(static_cast<int>(PHILOX_W32_0));
        const __m512i bump1 = _mm512_set1_epi32(static_cast<int>(PHILOX_W32_1));
        constexpr __mmask16 odd = 0xAAAA;
        __m512i k0 = _mm512_set1_epi32(static_cast<int>(m_key[0]));
        __m512i k1 = _mm512_set1_epi32(static_cast<int>(m_key[1]));
        for (int round = 0; round < 10; ++round) {
            if (round > 0) {
                k0 = _mm512_add_epi32(k0, bump0);
                k1 = _mm512_add_epi32(k1, bump1);
            }
            for (Lanes &l : lanes) {
                // 32 x 32 -> 64-bit products of the even and the odd lanes, split into hi and lo.
                const __m512i even0 = _mm512_mul_epu32(l.c0, multiplier0);
                const __m512i odd0 = _mm512_mul_epu32(_mm512_srli_epi64(l.c0, 32), multiplier0);
                const __m512i even1 = _mm512_mul_epu32(l.c2, multiplier1);
                const __m512i odd1 = _mm512_mul_epu32(_mm512_srli_epi64(l.c2, 32), multiplier1);
                const __m512i lo0 = _mm512_mask_blend_epi32(odd, even0, _mm512_slli_epi64(odd0, 32));
                const __m512i hi0 = _mm512_mask_blend_epi32(odd, _mm512_srli_epi64(even0, 32), odd0);
                const __m512i lo1 = _mm512_mask_blend_epi32(odd, even1, _mm512_slli_epi64(odd1, 32));
                const __m512i hi1 = _mm512_mask_blend_epi32(odd, _mm512_srli_epi64(even1, 32), odd1);
                l.c0 = _mm512_xor_si512(_mm512_xor_si512(hi1, l.c1), k0);
                l.c1 = lo1;
                l.c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, l.c3), k1);
                l.c3 = lo0;
            }
        }
    }

    // Back to one counter's four words after another: a 4 x 4 transpose of 32-bit words
    // within each 128-bit lane, then the lanes put in order. 64 words.
    static void store(const Lanes &l, std::uint32_t *dst)
    {
        const __m512i t0 = _mm512_unpacklo_epi32(l.c0, l.c1);
        const __m512i t1 = _mm512_unpacklo_epi32(l.c2, l.c3);
        const __m512i t2 = _mm512_unpackhi_epi32(l.c0, l.c1);
        const __m512i t3 = _mm512_unpackhi_epi32(l.c2, l.c3);
        const __m512i g0 = _mm512_unpacklo_epi64(t0, t1); // counters 0, 4, 8, 12
        const __m512i g1 = _mm512_unpackhi_epi64(t0, t1); // counters 1, 5, 9, 13
        const __m512i g2 = _mm512_unpacklo_epi64(t2, t3); // counters 2, 6, 10, 14
        const __m512i g3 = _mm512_unpackhi_epi64(t2, t3); // counters 3, 7, 11, 15
        const __m512i a = _mm512_shuffle_i32x4(g0, g1, 0x44); // counters 0, 4, 1, 5
        const __m512i b = _mm512_shuffle_i32x4(g2, g3, 0x44); // counters 2, 6, 3, 7
        const __m512i c = _mm512_shuffle_i32x4(g0, g1, 0xEE); // counters 8, 12, 9, 13
        const __m512i d = _mm512_shuffle_i32x4(g2, g3, 0xEE); // counters 10, 14, 11, 15
        _mm512_storeu_si512(dst, _mm512_shuffle_i32x4(a, b, 0x88)); // counters 0, 1, 2, 3
        _mm512_storeu_si512(dst + 16, _mm512_shuffle_i32x4(a, b, 0xDD)); // counters 4, 5, 6, 7
        _mm512_storeu_si512(dst + 32, _mm512_shuffle_i32x4(c, d, 0x88)); // counters 8, 9, 10, 11
        _mm512_storeu_si512(dst + 48, _mm512_shuffle_i32x4(c, d, 0xDD)); // counters 12, 13, 14, 15
    }
#endif

    r123::Philox4x32::key_type m_key;
    std::uint32_t m_stream;
};

} // namespace posenc
