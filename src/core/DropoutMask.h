#pragma once

#include "Block.h"
#include "DropoutSimd.h"
#include "Params.h"
#include "Philox.h"

#include <cstdint>
#include <vector>

namespace posenc {

// The Bernoulli(1 - p) keep mask of inverted dropout, and the rules of each dropout variant
// (docs/ARCHITECTURE.md, The mathematics). Bit (p, j) is a pure function of (seed, p, j).
// What a dropout mode's dropout acts on; its row rules are the mask's.
DropoutTarget dropoutTarget(DropoutMode mode);

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
    // rows protected by protect-special and everything in evaluation mode read as kept, and
    // masked-fill's padding rows (zero in Y) as dropped, a fixed row rather than random bits.
    void fillRow(std::int64_t position, std::int64_t col0, std::int64_t cols, float *dst) const;

    // How a row is treated by the variant.
    enum class RowRule { Dropout, PassThrough, Zero };
    RowRule rowRule(std::int64_t position) const;

    // Y for one row of X, `cols` long. With `streaming`, a `dst` that starts on a vector-aligned
    // address is written with non-temporal stores (the caller fences).
    void applyRow(std::int64_t position, std::int64_t col0, std::int64_t cols, const InputRow &x, float *dst,
                  bool streaming = false) const;

    // The raw Bernoulli bits of a row, before the variant's row rules: bit c % 64 of
    // bits[c / 64] is kept(position, col0 + c).
    void keepBits(std::int64_t position, std::int64_t col0, std::int64_t cols, std::uint64_t *bits) const;

private:
    // A cell is kept when its 32-bit uniform U is below the threshold T = round((1 - p) 2^32).
    // U's top byte comes from a word shared by 4 cells; only when that byte equals T's top
    // byte (1 cell in 256) are its 24 low bits drawn, from a second stream. The law is
    // exactly that of a full 32-bit U, for a quarter of the random words.
    CellRandom m_random;
    CellRandom m_lowBits;
    double m_p;
    float m_keep;
    std::uint64_t m_threshold; // T; 2^32 keeps everything
    bool m_training;
    DropoutMode m_mode;
    std::int64_t m_seqLen;
    std::vector<bool> m_protected; // by position, for protect-special
};

} // namespace posenc
