#pragma once

#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <vector>

// YaRN's ramp read back from a vector's frequencies (docs/ARCHITECTURE.md, Checking a table; issue
// 56). transformers' _compute_yarn_parameters (modeling_rope_utils.py) blends, pair by pair,
// inv_freq = e_i (1 - r_i) + e_i / factor * r_i, e_i = rope_theta^(-2i/d), with the ramp
// r_i = clamp((i - low) / (high - low), 0, 1) of linear_ramp_factor; low and high are
// find_correction_range's: find_correction_dim(beta_fast) and find_correction_dim(beta_slow)
// (d ln(original / (2 pi beta)) / (2 ln rope_theta)), floored and ceiled when truncate (DeepSeek's
// inference/model.py precompute_freqs_cis the same), clamped to [0, d - 1]. So 1 - inv_freq_i / e_i
// = (1 - 1 / factor) r_i: zero on the kept pairs, a plateau on the divided ones, a line in i between.
// Read from that line, the ends give the betas (any pair of them, swapped ones too: beta_fast below
// beta_slow runs the ramp backwards), and the plateau the factor; where the ramp runs past the last
// pair (no pair fully divided: DeepSeek-V4's yarn at rope_theta 10000, factor 16, original 65536,
// whose high end 33 lies past pair 31), the factor comes from the slope at each end the ramp may have.
namespace posenc::RopeYarnBetas {

// A vector's frequencies as read: each pair's value and how far it may be off, relative (infinite
// where the pair is not pinned).
struct Read
{
    std::vector<double> w;
    std::vector<double> within;
};

// The yarn parameters at `at` (rope_type yarn with its rope_theta, head_dim, original length and
// yarn_truncate; its factor and betas the ones to keep where they fit) whose ramp `read` holds:
// each a candidate the caller verifies against the vector, the roundest betas first (at's own at
// another original length a power of two times at's, which find_correction_dim cannot tell from
// betas that many times at's; then HF's 32 and 1, then powers of two). Nothing where the frequencies show no ramp of
// at's width.
std::vector<Params> readings(const Read &read, const Params &at);

// The same at every original length a power of two (2^8 .. 2^21) and yarn_truncate either way, at
// each of `thetas`, ordered by roughness: an undeclared vector's, whose original length and betas
// only their ratio shows (find_correction_dim reads original / beta), the roundest taken.
std::vector<Params> undeclaredReadings(const Read &read, const std::vector<double> &thetas);

// The mistakes a yarn reading names against a yarn declaration: the ids of the parameters that
// differ (original-max-len, rope-factor, yarn-truncate, beta-fast, beta-slow) appended to `ids`, each said with both
// values, and betas exchanged or below one another said so. Empty where neither factor, truncate nor betas differ.
inline const QString kBetaFast = QStringLiteral("beta-fast");
inline const QString kBetaSlow = QStringLiteral("beta-slow");
inline const QString kTruncate = QStringLiteral("yarn-truncate");
QStringList differences(const Params &found, const Params &declared, QStringList &ids);

// How far a candidate's betas are from a config's: 0 for HF's defaults (32, 1), more for the less
// round; what a caller orders candidates of several original lengths by.
int roughness(const Params &p);

} // namespace posenc::RopeYarnBetas
