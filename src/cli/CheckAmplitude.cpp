// --pe-scale, a sinusoid's declared amplitude: read as typed, refused where it cannot apply, and
// held to the table's measured amplitude where the typed value is its rounding (docs/ARCHITECTURE.md,
// Checking a table).
#include "CheckExpect.h"

#include "check/CellTolerance.h"
#include "check/TableCheck.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"
#include "core/ParamError.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::CheckExpect {

namespace {

// Fewer significant digits than this and a typed value is the value itself, not a rounding: "1",
// "2" or "0.5" declare exactly 1, 2 or 0.5 (a table 1.4 times the sinusoid is no "1").
constexpr qsizetype kLeastRoundingDigits = 3;

// Half a unit in the last digit of a number as typed, where it has kLeastRoundingDigits significant
// digits or more: "0.0884" 0.00005, "11.3137" 0.00005, "1.25e-3" 0.000005 (the digits after the
// point, shifted by the exponent); 0 for "2", "0.5", "100" or "1.5e-3", which are exact.
double typedHalfUnit(const QString &typed)
{
    const QString text = typed.trimmed().toLower();
    const qsizetype e = text.indexOf(u'e');
    const QString mantissa = e < 0 ? text : text.left(e);
    bool ok = true;
    const int exponent = e < 0 ? 0 : text.mid(e + 1).toInt(&ok);
    const qsizetype point = mantissa.indexOf(u'.');
    const qsizetype decimals = point < 0 ? 0 : mantissa.size() - point - 1;
    QString digits;
    for (const QChar c : mantissa) {
        if (c.isDigit())
            digits.append(c);
    }
    while (digits.startsWith(u'0'))
        digits.remove(0, 1);
    if (point < 0) // an integer's trailing zeros say nothing of its precision
        while (digits.endsWith(u'0'))
            digits.chop(1);
    if (!ok || digits.size() < kLeastRoundingDigits)
        return 0.0;
    return 0.5 * std::pow(10.0, double(exponent) - double(decimals));
}

} // namespace

std::optional<QString> declareAmplitude(const QCommandLineParser &parser, CheckDeclaration &declaration,
                                        Expectation &expected)
{
    if (!parser.isSet(kPeScale))
        return std::nullopt;
    bool ok = false;
    const double c = parser.value(kPeScale).toDouble(&ok);
    if (!ok || !(c > 0.0 && c <= 1e6))
        return u"--pe-scale: a number in (0, 1e6], the sinusoid's amplitude; got %1"_s.arg(
            ParamError::quoted(parser.value(kPeScale)));
    // Against a reference table the reference's own values are the amplitude: a table c times
    // them is named scaled, with c (TableRatio), so the flag would declare nothing.
    if (parser.isSet(u"expect-table"_s))
        return u"--pe-scale: the amplitude against the sinusoid's formula; with --expect-table the reference's values "
               "are the amplitude (a table c times them is named scaled, with c), so the pair declares nothing"_s;
    declaration.amplitude = expected.amplitude = c;
    expected.amplitudeWithin = typedHalfUnit(parser.value(kPeScale));
    return std::nullopt;
}

std::optional<QString> amplitudeUnread(TableMatch &m, const Expectation &expected, const QString &name,
                                       const std::optional<QString> &typedNote)
{
    if (!expected.amplitude)
        return std::nullopt;
    if (typedNote)
        m.notes.append(*typedNote);
    if (!m.family) {
        m.notes.append(u"--pe-scale was not applied: it declares a sinusoidal table's amplitude, and the table "
                       "reads as no family's"_s);
        return std::nullopt;
    }
    if (*m.family == Encoding::Sinusoidal)
        return std::nullopt;
    return u"--pe-scale: the amplitude c of a sinusoidal table (c * PE, x-transformers' ScaledSinusoidalEmbedding) "
           "only; %1 reads as %2, which has none (a RoPE table's amplitude is its attention factor: "
           "--attention-factor)"_s.arg(name, m.table.isEmpty() ? Families::word(*m.family) : m.table);
}

std::optional<QString> amplitudeAsTyped(const TableRows &rows, TableCheck::Declared &declaration, Expectation &expected,
                                        const std::atomic<bool> *cancel)
{
    if (!expected.amplitude || !(expected.amplitudeWithin > 0.0))
        return std::nullopt;
    TableCheck::Declared plain = declaration;
    plain.amplitude.reset();
    auto identified = TableCheck::identify(rows, plain, cancel);
    const auto *read = std::get_if<TableMatch>(&identified);
    if (!read || read->family != Encoding::Sinusoidal)
        return std::nullopt;
    const MatchValue scale = read->finding(u"scale"_s);
    const double *c = std::get_if<double>(&scale);
    const double typed = *expected.amplitude;
    if (!c || *c == typed || std::fabs(*c - typed) > expected.amplitudeWithin)
        return std::nullopt;
    declaration.amplitude = expected.amplitude = *c;
    // The digits the table's format holds: float32's 7, float16's 4, bfloat16's 3.
    const int digits = int(std::ceil(-std::log10(2.0 * halfUnit(storedFormat(rows.storedType())))));
    return u"--pe-scale %1 declares the amplitude to its last digit (within %2): the table's, measured to its "
           "precision, is %3, and the table is held to that"_s.arg(NumberText::compact(typed, 10),
                                                                   NumberText::compact(expected.amplitudeWithin, 3),
                                                                   NumberText::compact(*c, digits));
}

} // namespace posenc::CheckExpect
