#include "CheckApplyReport.h"

#include "JsonOutput.h"

#include "core/Description.h"
#include "core/NumberText.h"

using namespace Qt::StringLiterals;

namespace posenc::CheckApplyReport {

QString layoutWord(RopeLayout layout)
{
    return layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s;
}

QStringList lines(const ApplyPairs::Outcome &r, const Family &family)
{
    QStringList out {u"verdict: %1"_s.arg(CheckWords::verdict(r.verdict))};
    if (r.verdict == CheckVerdict::Correct)
        out.append(u"equals: "_s + family.equals);
    if (!family.found) {
        out.append(u"diagnosis: "_s + r.diagnosis);
        return out;
    }
    out.append(u"rotation: %1 pairs (%2); the cos/sin table's: %3"_s.arg(
        layoutWord(r.rotation),
        r.rotation == RopeLayout::Half ? u"rotate_half, HF's Llama"_s : u"rotate_every_two, GPT-J's"_s,
        layoutWord(r.table)));
    out += family.pairing;
    out.append(u"attention factor: "_s + NumberText::compact(r.attentionFactor, 6));
    out += family.positions;
    out.append(u"max |error|: %1 at row %2, column %3; rows beyond float32's rounding: %4"_s
                   .arg(NumberText::compact(r.maxAbsError, 3))
                   .arg(r.worstRow)
                   .arg(r.worstColumn)
                   .arg(r.deviatingRows));
    if (!r.mistakes.isEmpty())
        out.append(u"mistakes: "_s + r.mistakes.join(u", "_s));
    out.append(u"diagnosis: "_s + r.diagnosis);
    for (const QString &note : r.notes)
        out.append(u"note: "_s + note);
    return out;
}

QString json(const ApplyPairs::Outcome &r, const Family &family)
{
    using Description::jsonNumber;
    using Description::jsonString;
    QStringList mistakes;
    for (const QString &mistake : r.mistakes)
        mistakes.append(jsonString(mistake));
    const bool found = family.found;
    Entries entries {{u"verdict"_s, jsonString(CheckWords::verdict(r.verdict))}};
    entries += family.head;
    entries += Entries {{u"layout"_s, found ? jsonString(layoutWord(r.rotation)) : u"null"_s},
                        {u"table_layout"_s, found ? jsonString(layoutWord(r.table)) : u"null"_s}};
    entries += family.pairingKeys;
    entries.append({u"attention_factor"_s, found ? jsonNumber(r.attentionFactor) : u"null"_s});
    entries += family.positionKeys;
    entries += Entries {
        {u"mistakes"_s, u"["_s + mistakes.join(u", "_s) + u"]"_s},
        {u"max_abs_error"_s, found ? jsonNumber(r.maxAbsError) : u"null"_s},
        {u"worst_position"_s, r.worstRow >= 0 ? QString::number(r.worstRow) : u"null"_s},
        {u"worst_column"_s, r.worstColumn >= 0 ? QString::number(r.worstColumn) : u"null"_s},
        {u"diagnosis"_s, jsonString(r.diagnosis)},
    };
    QStringList parts {JsonOutput::head(u"check-apply"_s)};
    for (const auto &[key, value] : entries)
        parts.append(u"\"%1\": %2"_s.arg(key, value));
    return u"{"_s + parts.join(u", "_s) + u"}\n"_s;
}

} // namespace posenc::CheckApplyReport
