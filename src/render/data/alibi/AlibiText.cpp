#include "AlibiText.h"

#include "core/NumberText.h"
#include "core/alibi/AlibiSlopes.h"

#include <QStringList>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::AlibiText {

namespace {

QString superscript(const QString &text)
{
    static const QString digits = u"⁰¹²³⁴⁵⁶⁷⁸⁹"_s;
    QString out;
    for (const QChar c : text) {
        if (c.isDigit())
            out += digits[c.digitValue()];
        else if (c == u'-')
            out += u"⁻"_s;
        else if (c == u'.')
            out += u"·"_s;
        else
            out += c;
    }
    return out;
}

QString ordinal(std::int64_t n)
{
    const std::int64_t tens = n % 100;
    const QString suffix = (tens >= 11 && tens <= 13) ? u"th"_s
        : n % 10 == 1                                 ? u"st"_s
        : n % 10 == 2                                 ? u"nd"_s
        : n % 10 == 3                                 ? u"rd"_s
                                                      : u"th"_s;
    return QString::number(n) + suffix;
}

} // namespace

QString powerText(double slope)
{
    if (!(slope > 0.0))
        return QString();
    const double exponent = std::log2(slope);
    const double scaled = exponent * 64.0;
    if (std::abs(scaled - std::round(scaled)) > 1e-6)
        return QString();
    // The exponent's shortest decimal text: a multiple of 1/64 has at most six decimals.
    QString text = QString::number(std::round(scaled) / 64.0, 'f', 6);
    while (text.contains(u'.') && (text.endsWith(u'0') || text.endsWith(u'.')))
        text.chop(1);
    return u"2"_s + superscript(text);
}

QString slopeText(double slope)
{
    const QString power = powerText(slope);
    const QString value = NumberText::compact(slope, 3);
    return power.isEmpty() ? value : u"%1 (%2)"_s.arg(value, power);
}

QString interleaveText(std::int64_t heads)
{
    const std::int64_t p = AlibiSlopes::geometricHeads(heads);
    if (p == heads)
        return QString();
    const std::int64_t extra = heads - p;
    QStringList members;
    for (std::int64_t i = 0; i < std::min<std::int64_t>(extra, 4); ++i)
        members.append(ordinal(2 * i + 1));
    QString which;
    if (extra == 1)
        which = u"its 1st"_s;
    else if (extra <= 4)
        which = u"its %1 and %2"_s.arg(members.mid(0, members.size() - 1).join(u", "_s), members.back());
    else
        which = u"its %1, … %2"_s.arg(members.join(u", "_s), ordinal(2 * extra - 1));
    const QString range = extra == 1 ? u"head %1 takes"_s.arg(p + 1) : u"heads %1–%2 take"_s.arg(p + 1).arg(heads);
    const QString series = extra == 1 ? u"the first slope"_s : u"every other slope"_s;
    const QString place = extra == 1
        ? u"above head 1's slope"_s
        : u"the first above head 1's slope, each other one halfway between two slopes of heads 1–%1 on a log scale"_s
              .arg(p);
    return u"%1 %2 of the %3-head series (%4): %5"_s.arg(range, series, QString::number(2 * p), which, place);
}

QString headText(const AlibiParams &alibi)
{
    return u"H = %1 %2, head K = %3 (m = %4)"_s.arg(alibi.heads)
        .arg(alibi.heads == 1 ? u"head"_s : u"heads"_s)
        .arg(alibi.head)
        .arg(slopeText(AlibiSlopes::of(alibi.heads, alibi.head)));
}

QString maskText(AlibiMask mask)
{
    return AlibiSlopes::maskText(mask);
}

} // namespace posenc::AlibiText
