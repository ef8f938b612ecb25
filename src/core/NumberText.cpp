#include "NumberText.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::NumberText {

namespace {

// |value − 1| below this is a computation's rounding, and the value reads "1".
constexpr double kOneNoise = 1e-12;

QString superscript(int exponent)
{
    static const QString digits = u"⁰¹²³⁴⁵⁶⁷⁸⁹"_s;
    QString text = exponent < 0 ? u"⁻"_s : QString();
    for (const QChar c : QString::number(std::abs(exponent)))
        text += digits[c.digitValue()];
    return text;
}

} // namespace

QString compact(double value, int digits)
{
    QString text = QString::number(value, 'g', digits);
    text.replace(u"e+0"_s, u"e"_s).replace(u"e+"_s, u"e"_s).replace(u"e-0"_s, u"e-"_s);
    return text;
}

int factorDigits(double value)
{
    const double off = std::abs(value - 1.0);
    return off > 0.0 && off < 1e-3 ? std::min(2 - int(std::floor(std::log10(off))), 15) : 5;
}

QString factor(double value)
{
    return compact(value, factorDigits(value));
}

QString prose(double value, int digits)
{
    if (std::isnan(value))
        return u"NaN"_s;
    if (std::isinf(value))
        return value > 0 ? u"∞"_s : u"−∞"_s;
    if (value == 0.0)
        return u"0"_s;
    const QString sign = value < 0 ? u"−"_s : QString();
    const double magnitude = std::abs(value);
    int exponent = int(std::floor(std::log10(magnitude)));
    if (magnitude >= 1e-3 && magnitude < 1e7) {
        const int decimals = std::max(0, digits - 1 - exponent);
        QString text = QString::number(magnitude, 'f', decimals);
        if (text.contains(u'.')) {
            while (text.endsWith(u'0'))
                text.chop(1);
            if (text.endsWith(u'.'))
                text.chop(1);
        }
        // A whole number's thousands grouped, as count() groups them: a sentence that says "16,384"
        // says "229,376" beside it, not "229376".
        for (qsizetype at = text.size() - 3; decimals == 0 && at > 0; at -= 3)
            text.insert(at, u',');
        // A value other than 1 never reads "1": a score of 0.99969 is not the identity's. It gets
        // the decimals that tell it from 1 ("0.9997"), a difference below kOneNoise being rounding.
        const double off = std::abs(magnitude - 1.0);
        if (text == u"1"_s && off > kOneNoise) {
            text = QString::number(magnitude, 'f', -int(std::floor(std::log10(off))));
            while (text.endsWith(u'0'))
                text.chop(1);
        }
        return sign + text;
    }
    double mantissa = magnitude / std::pow(10.0, exponent);
    QString text = QString::number(mantissa, 'f', digits - 1);
    if (text.startsWith(u"10"_s)) { // 9.996 rounds up to the next power of ten
        ++exponent;
        text = QString::number(mantissa / 10.0, 'f', digits - 1);
    }
    while (text.contains(u'.') && text.endsWith(u'0'))
        text.chop(1);
    if (text.endsWith(u'.'))
        text.chop(1);
    return sign + (text == u"1"_s ? QString() : text + u"·"_s) + u"10"_s + superscript(exponent);
}

int digitsApart(double a, double b)
{
    int digits = 3;
    while (digits < kMostDigits && a != b && prose(a, digits) == prose(b, digits))
        ++digits;
    return digits;
}

QString exact(double value)
{
    // A whole number in its digits ("500000", not "5e+05"), as a config and the user write it, up to
    // 2^53, past which a double holds no longer every integer.
    if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) <= 0x1p53)
        return QString::number(static_cast<qlonglong>(value));
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

QString count(std::int64_t value)
{
    return QLocale(QLocale::English).toString(static_cast<qlonglong>(value));
}

} // namespace posenc::NumberText
