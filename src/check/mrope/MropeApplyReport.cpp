#include "MropeApplyReport.h"

#include "core/Description.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::MropeApplyReport {

namespace {

using Description::jsonString;
using MropeApplyCheck::RowIds;

QString sectionText(const std::vector<std::int64_t> &s)
{
    QStringList counts;
    for (const std::int64_t c : s)
        counts.append(QString::number(c));
    return u"["_s + counts.join(u", "_s) + u"]"_s;
}

QString range(std::int64_t low, std::int64_t high)
{
    return low == high ? QString::number(low) : u"%1..%2"_s.arg(low).arg(high);
}

// The rows by runs: text rows (the same id on the three axes, one after another), the rows
// between them with each axis's range, and the rows whose ids were not read.
QString idRuns(const std::vector<RowIds> &ids)
{
    QStringList runs;
    const auto n = std::ssize(ids);
    const auto unread = [](const RowIds &i) { return i.t < 0 || i.h < 0 || i.w < 0; };
    const auto same = [&](std::int64_t r) {
        const RowIds &i = ids[std::size_t(r)];
        return !unread(i) && i.t == i.h && i.h == i.w;
    };
    // A vision span's first token is at (s, s, s) too: it goes with the span after it.
    const auto text = [&](std::int64_t r) {
        const bool spanStart = r + 1 < n && !same(r + 1) && !unread(ids[std::size_t(r + 1)])
            && ids[std::size_t(r + 1)].t == ids[std::size_t(r)].t;
        return same(r) && !spanStart;
    };
    for (std::int64_t r = 0; r < n && runs.size() < 12;) {
        std::int64_t e = r + 1;
        const RowIds &first = ids[std::size_t(r)];
        if (unread(first)) {
            while (e < n && unread(ids[std::size_t(e)]))
                ++e;
            runs.append(u"rows %1 not read"_s.arg(range(r, e - 1)));
        } else if (text(r)) {
            while (e < n && text(e) && ids[std::size_t(e)].t == ids[std::size_t(e - 1)].t + 1)
                ++e;
            runs.append(u"rows %1 at %2"_s.arg(range(r, e - 1), range(first.t, first.t + (e - 1 - r))));
        } else {
            RowIds low = first, high = first;
            while (e < n && !text(e) && !unread(ids[std::size_t(e)])) {
                const RowIds &i = ids[std::size_t(e)];
                low = {std::min(low.t, i.t), std::min(low.h, i.h), std::min(low.w, i.w)};
                high = {std::max(high.t, i.t), std::max(high.h, i.h), std::max(high.w, i.w)};
                ++e;
            }
            runs.append(u"rows %1 at t %2, h %3, w %4"_s.arg(range(r, e - 1), range(low.t, high.t),
                                                             range(low.h, high.h), range(low.w, high.w)));
        }
        r = e;
        if (r < n && runs.size() == 12)
            runs.append(u"…"_s);
    }
    return runs.join(u"; "_s);
}

} // namespace

ApplyReport::Family family(const MropeApplyCheck::Result &r)
{
    ApplyReport::Family f;
    f.equals = u"Y = X turned by %1 at get_rope_index's ids"_s.arg(r.reference);
    f.found = !r.section.empty();
    f.head = {{u"encoding"_s, jsonString(u"mrope"_s)}};
    if (!f.found) {
        f.pairingKeys = {{u"mrope_section"_s, u"null"_s}, {u"mrope_interleaved"_s, u"null"_s}};
        f.positionKeys = {{u"id_offset"_s, u"null"_s},
                          {u"prompt_tokens"_s, u"null"_s},
                          {u"rope_deltas"_s, u"null"_s},
                          {u"ids"_s, u"[]"_s}};
        return f;
    }
    f.pairing = {u"split: "_s + MropeMistakes::splitWords(r.section, r.interleaved)};
    f.positions = {u"ids (t, h, w): "_s + idRuns(r.ids)};
    if (r.ropeDeltas)
        f.positions.append(u"prompt: %1 tokens, rope_deltas %2"_s.arg(r.promptTokens).arg(*r.ropeDeltas));
    QStringList ids;
    ids.reserve(qsizetype(r.ids.size()));
    for (const RowIds &i : r.ids)
        ids.append(u"[%1, %2, %3]"_s.arg(i.t).arg(i.h).arg(i.w));
    f.pairingKeys = {{u"mrope_section"_s, sectionText(r.section)},
                     {u"mrope_interleaved"_s, r.interleaved ? u"true"_s : u"false"_s}};
    f.positionKeys = {{u"id_offset"_s, r.idOffset ? QString::number(*r.idOffset) : u"null"_s},
                      {u"prompt_tokens"_s, r.ropeDeltas ? QString::number(r.promptTokens) : u"null"_s},
                      {u"rope_deltas"_s, r.ropeDeltas ? QString::number(*r.ropeDeltas) : u"null"_s},
                      {u"ids"_s, u"["_s + ids.join(u", "_s) + u"]"_s}};
    return f;
}

} // namespace posenc::MropeApplyReport
