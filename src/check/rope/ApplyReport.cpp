#include "ApplyReport.h"

#include "check/VerdictNames.h"
#include "core/Description.h"
#include "core/NumberText.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::ApplyReport {

namespace {

QString formatWord(ValueFormat format)
{
    switch (format) {
    case ValueFormat::Float16:
        return u"float16"_s;
    case ValueFormat::BFloat16:
        return u"bfloat16"_s;
    case ValueFormat::Float32:
        break;
    }
    return u"float32"_s;
}

// "float16, half a unit 2^-11 relative (Y is stored as float16)": the rounding the cells are
// compared within, and what shows it.
QString precisionWords(const ApplyPairs::Precision &p)
{
    const QString format = formatWord(p.format);
    const int exponent = int(std::lround(std::log2(halfUnit(p.format))));
    QString source = u"Y is stored as %1"_s.arg(format);
    if (p.fromValues)
        source = u"every value of Y is a %1 value: a %1 model's output saved wider%2"_s.arg(
            format, p.format == ValueFormat::BFloat16 ? u" (numpy has no bfloat16)"_s : QString());
    return u"%1, half a unit 2^%2 relative (%3)"_s.arg(format).arg(exponent).arg(source);
}

// The names a verdict carries: a mistake's, or, on any other verdict, a guess said as one.
QString mistakesLine(const ApplyPairs::Outcome &r)
{
    return r.verdict == CheckVerdict::Mistake ? u"mistakes: "_s + r.mistakes.join(u", "_s)
                                              : u"guessed mistakes (a guess, not the verdict): "_s + r.mistakes.join(u", "_s);
}

} // namespace

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
        if (!r.mistakes.isEmpty())
            out.append(mistakesLine(r));
        out.append(u"diagnosis: "_s + r.diagnosis);
        return out;
    }
    out.append(u"rotation: %1 pairs (%2); the cos/sin table's: %3"_s.arg(
        layoutWord(r.rotation),
        r.rotation == RopeLayout::Half ? u"rotate_half, HF's Llama"_s : u"rotate_every_two, GPT-J's"_s,
        layoutWord(r.table)));
    out += family.pairing;
    out.append(u"attention factor: "_s + NumberText::compact(r.attentionFactor, 6));
    if (r.precision)
        out.append(u"precision: "_s + precisionWords(*r.precision));
    out += family.positions;
    out.append(u"max |error|: %1 at row %2, column %3; rows beyond %4's rounding: %5"_s
                   .arg(NumberText::compact(r.maxAbsError, 3))
                   .arg(r.worstRow)
                   .arg(r.worstColumn)
                   .arg(formatWord(r.precision ? r.precision->format : ValueFormat::Float32))
                   .arg(r.deviatingRows));
    if (!r.mistakes.isEmpty())
        out.append(mistakesLine(r));
    out.append(u"diagnosis: "_s + r.diagnosis);
    for (const QString &note : r.notes)
        out.append(u"note: "_s + note);
    return out;
}

QString json(const ApplyPairs::Outcome &r, const Family &family)
{
    using Description::jsonNumber;
    using Description::jsonString;
    const bool found = family.found;
    Entries entries {{u"verdict"_s, jsonString(CheckWords::verdict(r.verdict))}};
    entries += family.head;
    if (r.notTurned) // read by a many-head check (CheckApplyHeads): the heads left unturned
        entries.append({u"not_turned"_s, u"true"_s});
    entries += Entries {{u"layout"_s, found ? jsonString(layoutWord(r.rotation)) : u"null"_s},
                        {u"table_layout"_s, found ? jsonString(layoutWord(r.table)) : u"null"_s}};
    entries += family.pairingKeys;
    entries.append({u"attention_factor"_s, found ? jsonNumber(r.attentionFactor) : u"null"_s});
    entries.append({u"precision"_s, r.precision ? jsonString(formatWord(r.precision->format)) : u"null"_s});
    entries += family.positionKeys;
    const QString names = CheckWords::mistakesJson(r.verdict, r.mistakes);
    entries += Entries {
        {u"max_abs_error"_s, found ? jsonNumber(r.maxAbsError) : u"null"_s},
        {u"worst_position"_s, r.worstRow >= 0 ? QString::number(r.worstRow) : u"null"_s},
        {u"worst_column"_s, r.worstColumn >= 0 ? QString::number(r.worstColumn) : u"null"_s},
        {u"diagnosis"_s, jsonString(r.diagnosis)},
    };
    QStringList parts;
    for (const auto &[key, value] : entries) {
        if (key == u"max_abs_error"_s) // the names a verdict carries, a mistake's or a guess's
            parts.append(names);
        parts.append(u"\"%1\": %2"_s.arg(key, value));
    }
    return parts.join(u", "_s);
}

ApplyResult result(const ApplyPairs::Outcome &r, const Family &family)
{
    return {r.verdict, lines(r, family), json(r, family)};
}

} // namespace posenc::ApplyReport
