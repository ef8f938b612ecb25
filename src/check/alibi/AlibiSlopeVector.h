#pragma once

#include "check/TableMatch.h"
#include "check/TableRows.h"

#include <optional>
#include <utility>
#include <vector>

// ALiBi's slopes as a model holds them, one per head (docs/ARCHITECTURE.md, Checking a table,
// "Shapes"): a vector [H] ([H, 1, 1], [1, H, 1, 1]), or the slopes read from a bias tensor's heads.
// The reference is get_slopes(H) of the paper's code (ofirpress/attention_with_linear_biases,
// fairseq/models/transformer.py; transformers' build_alibi_tensor and MPT's gen_slopes give the
// same values), non-power-of-two heads included; a tensor-parallel rank's heads are a contiguous
// run of a larger H's.
namespace posenc::AlibiSlopeVector {

inline const QString kTable = QStringLiteral("alibi-slopes");
inline const QString kSlopes = QStringLiteral("alibi-slopes"); // the mistake: slopes of another formula
inline const QString kHeadOrder = QStringLiteral("slopes-head-order"); // get_slopes' values at other heads
// Every head's slope 0: no bias at all (keras-hub#2977: Falcon's ALiBi built over the one-token query
// window at decode, its slopes lost).
inline const QString kBiasZero = QStringLiteral("alibi-bias-zero");
// get_slopes(n) where H = m != n heads are declared, and no run of get_slopes(m): the slopes of
// another head count.
inline const QString kHeadCount = QStringLiteral("alibi-head-count");

// The relative error of head `head`'s slope (1..`heads`) as published float32 code computes it:
// transformers' build_alibi_tensor (models/bloom/modeling_bloom.py), vLLM's _get_alibi_slopes
// (model_executor/models/bloom.py, mpt.py, baichuan.py) and flashinfer's get_alibi_slopes raise the
// base 2^(-8/P), rounded to float32 (relative δ_P), to the int power k in float32 (P the power of two
// below H and k = head, or for the heads past it 2P and k = 2 (head − P) − 1): the base's rounding
// grows k-fold, k |δ_P|, and pow's result and the stored value add a few units of 2^-24 (8 kept,
// get_slopes' double rounded once among them). At 32 heads 8 units, at 112 nearly 9, at 256 38.
double float32Error(std::int64_t heads, std::int64_t head);
// Whether that computation gives head `head`'s slope exactly: its base 2^(-8/P) (or 2^(-8/2P)) a
// power of two (P up to 8), whose int powers are powers of two that pow returns as they are (torch's
// pow of 0.5 to 1..8 is 2^-k, and 1 / 2^m of MPT's gen_slopes too).
bool exactSlope(std::int64_t heads, std::int64_t head);

// Whether `v` can be slopes: finite, in (0, 1].
bool plausible(const std::vector<double> &v);

// Against get_slopes(H) for H = `heads` (or the vector's length): correct, or the mistake named
// (non-power-of-two heads given 2^(-8k/H), a slope at another head) with the head. A vector of n != H
// declared heads is a variant where it is a contiguous run of get_slopes(H) (the heads said, a
// tensor-parallel rank's share where it is one of H / n), kHeadCount where it is get_slopes(n). Undeclared (`heads`
// unset) a wrong vector is a mistake only where it is get_slopes' values at the wrong heads, the power-of-two formula
// where H is not one, or get_slopes of fewer heads repeated per group (a tensor-parallel rank's local head count,
// flashinfer#1606); else unknown. Each head is held to float32Error. Declared, a vector of zeros is kBiasZero, any
// other wrong one kSlopes: every mistake carries an id.
TableMatch check(const std::vector<double> &v, StoredType stored, std::optional<std::int64_t> heads);

// The heads `v` holds where `declared` heads are declared and v is not of that many: (declared, the
// first head, 0-based) where v is a run of get_slopes(declared), (n, 0) where it is get_slopes(n) of
// its own n heads; nothing otherwise, or where n is the declared count.
std::optional<std::pair<std::int64_t, std::int64_t>> headsHeld(const std::vector<double> &v, StoredType stored,
                                                               std::int64_t declared);

QStringList mistakeIds();

} // namespace posenc::AlibiSlopeVector
