// The sinusoidal family (docs/ARCHITECTURE.md, Encoding families): the paper's table of sines and
// cosines, computed by the exact kernel, with closed forms for its statistics.
#include "core/FamilySpec.h"

#include "core/ClosedForms.h"
#include "core/NumberText.h"
#include "core/sinusoidal/Frequencies.h"
#include "core/sinusoidal/SinusoidalLessonNumbers.h"
#include "core/sinusoidal/SinusoidalParamRows.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// The hover readout's words of a column: its pair, with the frequency (radians per position) and
// the wavelength (positions).
QString sinusoidColumnWords(const Params &params, std::int64_t column)
{
    const std::int64_t k = params.peColumns();
    const ColumnRole role = Frequencies::role(column, k, params.sinusoidal);
    return u"pair %1 (%2): w = %3, λ = %4"_s.arg(role.pair)
        .arg(role.isCos ? u"cos"_s : u"sin"_s)
        .arg(Frequencies::angular(role.pair, k, params.sinusoidal), 0, 'g', 5)
        .arg(Frequencies::wavelength(role.pair, k, params.sinusoidal), 0, 'g', 5);
}

// And of a cell: the pair, and the value with the angle p·w as the table forms it (in double, or
// both factors rounded to float32 first).
QStringList sinusoidCellWords(const Params &params, std::int64_t position, std::int64_t column, float value)
{
    const std::int64_t k = params.peColumns();
    const ColumnRole role = Frequencies::role(column, k, params.sinusoidal);
    const double w = Frequencies::angular(role.pair, k, params.sinusoidal);
    const QString function = role.isCos ? u"cos"_s : u"sin"_s;
    const QString pe = NumberText::compact(value, 6);
    if (params.sinusoidal.angles == Angles::Float32) {
        const double angle = double(float(position) * float(w));
        return {sinusoidColumnWords(params, column),
                u"PE = %1 = %2(%3 rad: %4·w in float32)"_s.arg(pe, function, NumberText::compact(angle, 6),
                                                               QString::number(position))};
    }
    return {sinusoidColumnWords(params, column),
            u"PE = %1 = %2(%3·w = %4 rad)"_s.arg(pe, function, QString::number(position),
                                                 NumberText::compact(double(position) * w, 6))};
}

} // namespace

FamilySpec makeSinusoidalFamily()
{
    FamilySpec family = Families::fromWords(FamilyWords(u"Sinusoidal"_s), FamilyKind::Term);
    family.rows = SinusoidalParamRows::rows;
    FamilyTerm term;
    term.parts = [](const Params &params, std::int64_t columns) {
        PositionTermParts parts;
        parts.kernel.emplace(columns, Frequencies::schedule(columns, params.sinusoidal), params.sinusoidal.layout,
                             params.sinusoidal.angles, params.sinusoidal.flipSinToCos);
        return parts;
    };
    // Every pair holds sin² + cos² = 1.
    term.normSquared = [](const Params &params) -> std::optional<double> {
        const std::int64_t k = params.peColumns();
        if (k % 2 != 0)
            return std::nullopt;
        return ClosedForms::peNormSquared(k);
    };
    term.cellWords = sinusoidCellWords;
    term.columnWords = sinusoidColumnWords;
    family.term = term;
    // PE[q]·PE[k] in double: Σ sin(q w) sin(k w) + cos(q w) cos(k w) over its columns.
    family.score = FamilyScore {u"PE·PE"_s, [](const Params &params, std::int64_t q, std::int64_t k) {
                                    const std::int64_t columns = familyUnder(params, Encoding::Sinusoidal).peColumns();
                                    const auto w = Frequencies::schedule(columns, params.sinusoidal).w;
                                    double sum = 0.0;
                                    for (std::size_t i = 0; i < w.size(); ++i) {
                                        const double a = double(q) * w[i], b = double(k) * w[i];
                                        sum += std::sin(a) * std::sin(b);
                                        if (std::int64_t(2 * i + 1) < columns)
                                            sum += std::cos(a) * std::cos(b);
                                    }
                                    return std::optional(sum);
                                }};
    family.defaultFigures = {{u"heatmap"_s, {}}, {u"curves"_s, {}}, {u"magnitudes"_s, {}}, {u"dropout"_s, {}}};
    family.lessonNumbers = SinusoidalLessonNumbers::entries;
    return family;
}

} // namespace posenc
