#include "check/rope/ApplyTwice.h"

#include "check/rope/ApplyAngles.h"
#include "check/rope/ApplyReference.h"
#include "check/rope/RopeFrequencyMistakes.h"
#include "check/rope/RopeRowPositions.h"
#include "core/NumberText.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ApplyTwice {

namespace {

// Room for an angle read from Y's rounded cells (ApplyPairs::rowAngles: its uncertainty grows as a
// pair of X is small), on a cos of amplitude about 1.
constexpr double kAngleSlack = 1e-3;
constexpr std::int64_t kMostRows = 16384;

} // namespace

void name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared)
{
    if (!declared.reference)
        return;
    const FrequencySchedule s = RopeFrequencies::schedule(*declared.reference);
    const std::int64_t pairs = r.geometry.pairs();
    if (s.pairs() != pairs || pairs == 0)
        return;
    const double squared = s.amplitude * s.amplitude;
    if (!(std::fabs(r.factor / squared - 1.0) <= r.factorUncertainty() + u))
        return;
    const std::vector<RopeFrequencyMistakes::Candidate> all = RopeFrequencyMistakes::candidates(s.w, s.amplitude, {});
    RopeFrequencyMistakes::Candidate twice = all.front();
    // The angles' table holds cos of each pair's angle at Y's amplitude, in both halves.
    twice.amplitude = r.factor;
    std::vector<ReferenceColumn> columns;
    for (std::int64_t k = 0; k < 2 * pairs; ++k)
        columns.push_back({k % pairs, true});
    const std::vector<std::int64_t> &ids = declared.ids;
    const auto position = [&](std::int64_t row) -> std::int64_t { return ids.empty() ? row : ids[std::size_t(row)]; };
    const ApplyCheck::AnglesRows angles(x, y, r, u);
    const RopeFrequencyMistakes::Agreement a
        = RopeFrequencyMistakes::agree(angles, columns, position, twice, u, kAngleSlack, kMostRows);
    if (!a.holds(angles.cols()))
        return;
    result.verdict = CheckVerdict::Mistake;
    result.mistakes.append(RopeFrequencyMistakes::kAppliedTwice);
    result.attentionFactor = r.factor;
    result.params = *declared.reference;
    result.notes.prepend(result.diagnosis);
    result.diagnosis = u"Y is X turned by the declared reference twice: every angle twice the declared one (2 p "
                       "inv_freq at each row's position) and the amplitude %1, the declared attention factor %2 "
                       "squared (%3), R(p w) R(p w) = R(2 p w): RoPE applied by one path and again by another "
                       "(NVIDIA/TensorRT-LLM#16378); %4 of the angles' cells compared, %5 beyond the rounding"_s
                           .arg(NumberText::compact(r.factor, 6), NumberText::compact(s.amplitude, 6),
                                NumberText::compact(squared, 6))
                           .arg(a.compared)
                           .arg(a.beyond);
}

bool nameDoubled(ApplyCheck::Result &result, const ApplyCheck::Declared &declared,
                 const std::vector<std::int64_t> &positions, QStringList &lines)
{
    if (!declared.reference || !result.mistakes.contains(ApplyCheck::kPositionsOutOfOrder) || positions.size() < 2)
        return false;
    for (std::size_t r = 0; r < positions.size(); ++r) {
        const std::int64_t id = declared.ids.empty() ? std::int64_t(r) : declared.ids[r];
        if (positions[r] != 2 * id)
            return false;
    }
    const double af = RopeFrequencies::schedule(*declared.reference).amplitude;
    const double squared = af * af;
    if (!(std::fabs(result.attentionFactor / squared - 1.0) <= 1e-3))
        return false;
    const bool factorOne = std::fabs(af - 1.0) <= 1e-3;
    // Rows at 2r are in order: at a factor of 1 the other reading is positions scaled by 2
    // (positions-scaled), never out of order.
    result.mistakes.removeAll(ApplyCheck::kPositionsOutOfOrder);
    if (!factorOne)
        result.mistakes.removeAll(ApplyReference::kAttentionFactor);
    else if (!result.mistakes.contains(RopeRowPositions::kPositionsScaled))
        result.mistakes.append(RopeRowPositions::kPositionsScaled);
    result.mistakes.prepend(RopeFrequencyMistakes::kAppliedTwice);
    lines.prepend(u"Y is X turned by the declared reference twice: every row at twice its position (R(p w) R(p w) = "
                  "R(2 p w)) and the amplitude %1, the declared attention factor %2 squared: RoPE applied by one path "
                  "and again by another (NVIDIA/TensorRT-LLM#16378)%3"_s.arg(
                      NumberText::compact(result.attentionFactor, 6), NumberText::compact(af, 6),
                      factorOne ? u"; at an attention factor of 1 "
                                  "positions doubled give the same "
                                  "rows, named too (positions-scaled)"_s
                                : QString()));
    return true;
}

} // namespace posenc::ApplyTwice
