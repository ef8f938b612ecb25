#include "FigureText.h"

#include "core/NumberText.h"

#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::FigureText {

QString parametersText(Quantity quantity, const Params &params)
{
    return Quantities::spec(quantity).parameters(params).join(u"  ·  "_s);
}

QString formatCount(std::int64_t n)
{
    return NumberText::count(n);
}

QString countText(std::int64_t n, const QString &one, const QString &many)
{
    return u"%1 %2"_s.arg(formatCount(n), n == 1 ? one : many);
}

QString formatRatio(double value)
{
    if (!(std::abs(value) >= 999.5) || !std::isfinite(value)) // 999.5 is 1,000 to three digits
        return NumberText::compact(value, 3);
    const double unit = std::pow(10.0, std::floor(std::log10(std::abs(value))) - 2.0);
    return formatCount(std::llround(std::round(value / unit) * unit));
}

QString averagedCellsText(const Block &block, int rows, int cols)
{
    const double perRow = static_cast<double>(block.rows) / rows;
    const double perCol = static_cast<double>(block.cols) / cols;
    if (perRow <= 1.0 && perCol <= 1.0)
        return {};
    return u"~%1 × %2"_s.arg(formatRatio(perRow), formatRatio(perCol));
}

QString cellsPerPixelText(const Block &block, int rows, int cols)
{
    const double perRow = static_cast<double>(block.rows) / rows;
    const double perCol = static_cast<double>(block.cols) / cols;
    if (perRow <= 1.0 && perCol <= 1.0)
        return {};
    // Whole numbers past ten, as a student counts them: "~24 positions", "~2.7 columns".
    const auto count = [](double value, const QString &one, const QString &many) {
        if (value <= 1.0)
            return u"1 %1"_s.arg(one);
        const QString n = value >= 10.0 ? formatRatio(std::round(value)) : NumberText::compact(value, 2);
        return u"~%1 %2"_s.arg(n, many);
    };
    const QString down = count(perRow, u"position"_s, u"positions"_s);
    const QString across = count(perCol, u"column"_s, u"columns"_s);
    const QString whole = u"each pixel averages %1 and %2"_s.arg(down, across);
    // Shorter forms for a narrow view's bar (FigureOptionBar), each with its numbers whole; a count
    // of one left out ("~2.6 positions a pixel", not "~2.6 positions × 1 column a pixel").
    if (perRow <= 1.0 || perCol <= 1.0)
        return QStringList {whole, u"%1 a pixel"_s.arg(perCol <= 1.0 ? down : across)}.join(kLengthVariants);
    const auto bare = [](double value) {
        return u"~"_s + (value >= 10.0 ? formatRatio(std::round(value)) : NumberText::compact(value, 2));
    };
    return QStringList {whole, u"%1 × %2 a pixel"_s.arg(down, across),
                        u"%1 × %2 cells a pixel"_s.arg(bare(perRow), bare(perCol))}
        .join(kLengthVariants);
}

QString previewText(double rowCoverage)
{
    return u"preview (%1% of rows)"_s.arg(100.0 * rowCoverage, 0, 'g', 2);
}

QString belowAxisName(const QString &name, std::initializer_list<const QList<double> *> values, double floor, bool axes)
{
    std::int64_t below = 0;
    for (const QList<double> *list : values)
        for (const double v : *list)
            below += std::isfinite(v) && std::abs(v) < floor ? 1 : 0;
    if (below == 0)
        return name;
    return u"%1 (%2 below the %3)"_s.arg(name, formatCount(below), axes ? u"axes"_s : u"axis"_s);
}

FigureOption dropoutOwnerOption()
{
    FigureOption owner;
    owner.key = QString::fromUtf16(kDropoutOwner);
    owner.kind = FigureOption::Kind::Text;
    owner.valueName = u"TEXT"_s;
    owner.inWindow = false;
    owner.redrawsOnly = true;
    owner.help = u"whose p the title says it is, after it (\"p = 0.1, the lesson's\"); empty: none; an export of a "
                 "lesson sets it where the model's code has no input dropout or its source does not say"_s;
    return owner;
}

QString dropoutRateText(const Params &params, const FigureState &state)
{
    const QString rate = u"p = %1"_s.arg(NumberText::compact(params.dropout));
    const QString owner = dropoutOwnerText(state);
    return owner.isEmpty() ? rate : u"%1, %2"_s.arg(rate, owner);
}

QString dropoutOwnerText(const FigureState &state)
{
    return state.option(QString::fromUtf16(kDropoutOwner)).trimmed();
}

} // namespace posenc::FigureText
