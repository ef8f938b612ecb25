// Every row at one position (ApplyOnePosition.h).
#include "check/rope/ApplyOnePosition.h"

#include "check/rope/ApplyIds.h"
#include "core/rope/RopeFrequencies.h"

#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::ApplyOnePosition {

namespace {

constexpr double kTurn = 2.0 * std::numbers::pi;

// Whether a pair's angle is judged: read, and within a tenth of a radian.
bool judged(double angle, double unc)
{
    return !std::isnan(angle) && unc < 0.1;
}

} // namespace

bool name(ApplyCheck::Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r,
          double u, const ApplyCheck::Declared &declared)
{
    const std::vector<std::int64_t> sample = ApplyPairs::sampleRows(x.rows());
    if (sample.size() < 2 || r.geometry.pairs() < 1)
        return false;
    const auto pairs = std::size_t(r.geometry.pairs());
    std::vector<double> first(pairs), firstUnc(pairs), angle(pairs), unc(pairs);
    ApplyPairs::rowAngles(x, y, sample.front(), r.geometry, u, first.data(), nullptr, firstUnc.data());
    // Some pair turned beyond its uncertainty: rows all at 0 are Y = X, said before (ApplyNotTurned).
    bool turns = false;
    for (std::size_t k = 0; k < pairs; ++k)
        turns = turns
            || (judged(first[k], firstUnc[k]) && std::fabs(std::remainder(first[k], kTurn)) > 4.0 * firstUnc[k] + 1e-6);
    if (!turns)
        return false;
    for (const std::int64_t p : sample) {
        ApplyPairs::rowAngles(x, y, p, r.geometry, u, angle.data(), nullptr, unc.data());
        std::size_t compared = 0;
        for (std::size_t k = 0; k < pairs; ++k) {
            if (!judged(angle[k], unc[k]) || !judged(first[k], firstUnc[k]))
                continue;
            if (std::fabs(std::remainder(angle[k] - first[k], kTurn)) > 4.0 * (unc[k] + firstUnc[k]) + 1e-6)
                return false;
            ++compared;
        }
        if (compared == 0)
            return false;
    }
    result.rotation = r.geometry.rotation;
    result.table = r.geometry.table;
    result.attentionFactor = r.factor;
    result.rotaryStart = r.geometry.col0;
    result.rotaryDim = r.geometry.width;
    result.notes.clear();
    // Rows are a head's positions only as the caller read the axes: one token's heads ([B, H, 1, D] with
    // its 1 dropped, a decode step) are turned alike too, faithfully. Unknown, named.
    result.verdict = CheckVerdict::Unknown;
    result.mistakes = {ApplyCheck::kPositionsConstant};
    const QString rows = QString::number(x.rows());
    std::int64_t at = -1;
    if (declared.reference && RopeFrequencies::rotaryDim(declared.reference->rope) == r.geometry.width) {
        const FrequencySchedule schedule = RopeFrequencies::schedule(*declared.reference);
        const auto axis = ApplyPairs::AxisPairs::of(schedule.w, std::vector<bool>(schedule.w.size(), true));
        at = ApplyPairs::readId(axis, first.data(), firstUnc.data(), u, {}, std::int64_t(1) << 26);
        if (at >= 0) {
            const double factor = RopeFrequencies::attentionFactor(*declared.reference);
            std::vector<double> turned(pairs);
            for (std::size_t k = 0; k < pairs; ++k)
                turned[k] = double(at) * schedule.w[k];
            for (const std::int64_t p : sample)
                result.add(p, ApplyPairs::compareRow(x, y, p, r.geometry, factor, turned.data(), u));
        }
    }
    std::vector<std::int64_t> positions(std::size_t(x.rows()), at);
    result.positions = ApplyCheck::runsOf(positions);
    const QString where = at >= 0 ? u"at position %1 (the reference declared read there)"_s.arg(at)
                                  : u"at one position, by the same angle at each pair"_s;
    result.diagnosis
        = u"every one of the %1 rows is turned %2: one position for the whole sequence, a scalar (a cache's length, "
          "the last position) broadcast where each token has its own; transformers turns row r at "
          "position_ids[r], arange(past, past + L) (modeling_llama.py, LlamaModel.forward: cache_position); or "
          "the rows are one token's heads (a decode step's [B, H, 1, D]), each turned alike: --apply-heads N "
          "declares which axis holds the heads"_s.arg(rows, where);
    return true;
}

} // namespace posenc::ApplyOnePosition
