#include "MropeIdsReadBack.h"

#include "check/mrope/MropeTableFit.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::MropeIdsReadBack {

namespace {

using MropeTableJudge::exactTolerance;
using MropeTableJudge::judge;
using MropeTableJudge::Judged;

bool isVisionSpan(const MropeLayout::Span &s)
{
    return s.kind != MropeTokenKind::Text;
}

// "t", "h and w": the axes of `which`.
QString axesWords(const std::array<bool, 3> &which)
{
    static const std::array<QString, 3> names {u"t"_s, u"h"_s, u"w"_s};
    QStringList out;
    for (std::size_t a = 0; a < 3; ++a) {
        if (which[a])
            out.append(names[a]);
    }
    return out.size() == 3 ? u"t, h and w"_s : out.join(u" and "_s);
}

} // namespace

bool idsFit(const TableEvidence &e, const MropeTurns &turns, bool cosine, std::int64_t row, const MropeIds &ids,
            bool float32Angles)
{
    const MropeSampledReference one(turns, cosine, {row}, {ids});
    const Judged j = judge(one, e, turns);
    return (float32Angles ? j.bad() : j.score.bad) == 0;
}

QString idsText(const MropeIds &id)
{
    return u"(%1, %2, %3)"_s.arg(id.t).arg(id.h).arg(id.w);
}

std::optional<QString> idsReadBack(const TableEvidence &e, const Params &p, const MropePromptReference &correct,
                                   const Judged &judged)
{
    const MropeTurns &turns = correct.turns();
    if (turns.amplitude != 1.0 || !turns.columnAxes.empty())
        return std::nullopt;
    for (std::int64_t j = 0; j < turns.pairs(); ++j) {
        const double inv = std::pow(p.rope.theta, -double(j) / double(turns.pairs()));
        if (!(std::fabs(turns.inv[std::size_t(j)] - inv) <= 1e-12 * inv))
            return std::nullopt;
    }
    const auto reading = MropeTableFit::readAt(e, p.rope.theta, p.mrope.section, p.mrope.interleaved);
    if (!reading || reading->turns.half != turns.half || reading->cosine != correct.cosine())
        return std::nullopt;
    const MropeSampledReference read(reading->turns, reading->cosine, reading->rows, reading->ids);
    const Judged j = judge(read, e, reading->turns);
    if (!(j.bad() < judged.bad() && explains(j.score.compared, j.bad())))
        return std::nullopt;
    // A row's ids equal the prompt's where the prompt's explain the row within float32 angles: where
    // one axis's pairs turn too slowly to tell two ids apart, the reading may have taken the other.
    const auto rowFits = [&](std::int64_t row, const MropeIds &ids) {
        return idsFit(e, reading->turns, reading->cosine, row, ids, judged.float32);
    };
    std::vector<MropeIds> oneDimensional;
    for (const std::int64_t row : reading->rows)
        oneDimensional.push_back(MropeIds {MropeTokenKind::Text, row, row, row});
    const MropeSampledReference positions(reading->turns, reading->cosine, reading->rows, oneDimensional);
    const Judged oneD = judge(positions, e, reading->turns);
    std::int64_t differ = 0, first = -1, last = -1;
    std::array<bool, 3> moved {false, false, false}, held {true, true, true};
    std::array<std::int64_t, 3> heldAt {-1, -1, -1};
    QStringList shown;
    for (std::size_t i = 0; i < reading->rows.size(); ++i) {
        const std::int64_t row = reading->rows[i];
        MropeIds want;
        correct.ids(row, 1, &want);
        const MropeIds &got = reading->ids[i];
        const std::array<std::int64_t, 3> g {got.t, got.h, got.w}, w {want.t, want.h, want.w};
        if (g == w || rowFits(row, want))
            continue;
        ++differ;
        first = first < 0 ? row : first;
        last = row;
        for (std::size_t a = 0; a < 3; ++a) {
            if (g[a] == w[a])
                continue;
            moved[a] = true;
            held[a] = held[a] && (heldAt[a] < 0 || heldAt[a] == g[a]);
            heldAt[a] = g[a];
        }
        if (shown.size() < 3)
            shown.append(u"row %1 %2, not %3"_s.arg(row).arg(idsText(got), idsText(want)));
    }
    if (differ == 0)
        return std::nullopt;
    const bool vision = std::any_of(correct.layout().spans().begin(), correct.layout().spans().end(), isVisionSpan);
    if (vision && explains(oneD.score.compared, oneD.bad()))
        return u"every sampled row r holds ids (r, r, r): 1-D positions over the prompt's image and video rows, where "
               "get_rope_index gives them (t, h, w) grid ids (position_ids not taken from get_rope_index: "
               "linkedin/Liger-Kernel#276)"_s;
    QStringList how;
    std::array<bool, 3> heldAxes {}, otherAxes {};
    for (std::size_t a = 0; a < 3; ++a) {
        heldAxes[a] = moved[a] && held[a];
        otherAxes[a] = moved[a] && !held[a];
    }
    if (std::any_of(heldAxes.begin(), heldAxes.end(), [](bool b) { return b; })) {
        QStringList at;
        for (std::size_t a = 0; a < 3; ++a) {
            if (heldAxes[a])
                at.append(QString::number(heldAt[a]));
        }
        at.removeDuplicates();
        how.append(u"%1 held at %2"_s.arg(axesWords(heldAxes), at.join(u" and "_s)));
    }
    if (std::any_of(otherAxes.begin(), otherAxes.end(), [](bool b) { return b; }))
        how.append(u"%1 at other ids"_s.arg(axesWords(otherAxes)));
    const std::array<bool, 3> same {!moved[0], !moved[1], !moved[2]};
    if (std::any_of(same.begin(), same.end(), [](bool b) { return b; }))
        how.append(u"%1 as the prompt's"_s.arg(axesWords(same)));
    return u"the rows hold other (t, h, w) ids than get_rope_index gives the prompt, read back from the table at "
           "its split and rope_theta: %1 of the %2 sampled rows differ, from row %3 to row %4, %5 (%6)"_s.arg(differ)
               .arg(reading->rows.size())
               .arg(first)
               .arg(last)
               .arg(how.join(u", "_s), shown.join(u"; "_s));
}

} // namespace posenc::MropeIdsReadBack
