#pragma once

#include "Block.h"
#include "Params.h"
#include "Philox.h"

#include <cstdint>
#include <vector>

namespace posenc {

// The Bernoulli(1 - p) keep mask of inverted dropout, and the rules of each dropout variant
// (DESIGN.md section 1). Bit (p, j) is a pure function of (seed, p, j).
class DropoutMask
{
public:
    explicit DropoutMask(const Params &params);

    double probability() const { return m_p; }
    float keepProbability() const { return m_keep; } // 1 - p as float32: survivors are X / this
    bool isActive() const { return m_training && m_p > 0.0; }

    // The raw Bernoulli bit, before the variant's row rules.
    bool kept(std::int64_t position, std::int64_t column) const;
    // 1 for kept, 0 for dropped, for `cols` columns from `col0`: the mask of the variant, so
    // rows protected by protect-special and everything in evaluation mode read as kept.
    void fillRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const;

    // How a row is treated by the variant.
    enum class RowRule { Dropout, PassThrough, Zero };
    RowRule rowRule(std::int64_t position) const;

    // Y for one row: x = embedding part (s*E), q = positional part, both `cols` long.
    void applyRow(std::int64_t position, std::int64_t col0, std::int64_t cols, const float *embeddingPart,
                  const float *positionalPart, float *dst) const;

private:
    void fillBits(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const;

    CellRandom m_random;
    double m_p;
    float m_keep;
    std::uint64_t m_threshold; // kept iff word < threshold; 2^32 keeps everything
    bool m_training;
    DropoutMode m_mode;
    std::int64_t m_seqLen;
    std::vector<bool> m_protected; // by position, for protect-special
};

} // namespace posenc
