#include "FigureText.h"

#include "core/ParamText.h"

#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::FigureText {

QString quantityLabel(Quantity quantity)
{
    switch (quantity) {
    case Quantity::Pe:
        return u"PE"_s;
    case Quantity::Embedding:
        return u"s·E"_s;
    case Quantity::Input:
        return u"X = s·E + PE"_s;
    case Quantity::Output:
        return u"Y = dropout(X)"_s;
    case Quantity::Mask:
        return u"mask (kept fraction)"_s;
    case Quantity::Similarity:
        return u"PE·PEᵀ"_s;
    case Quantity::Error:
        return u"float32-angle PE − exact PE"_s;
    case Quantity::RopeFrequencies:
        return u"RoPE frequencies"_s;
    case Quantity::RopeCos:
        return u"RoPE cos"_s;
    case Quantity::RopeSin:
        return u"RoPE sin"_s;
    case Quantity::RopeScore:
        return u"RoPE score against distance"_s;
    case Quantity::RopeInput:
        return u"R(p) · s·E"_s;
    case Quantity::AlibiSlopes:
        return u"ALiBi slopes"_s;
    case Quantity::AlibiBias:
        return u"ALiBi bias −m·(i − j)"_s;
    case Quantity::T5Bucket:
        return u"T5 bucket of j − i"_s;
    case Quantity::DebertaBucket:
        return u"DeBERTa bucket of i − j"_s;
    }
    return {};
}

QString quantityLabel(Quantity quantity, const Params &params)
{
    const bool concat = params.concatenates();
    // Without a position term (NoPE), X is the scaled embeddings alone.
    const QString x = params.peColumns() == 0 ? u"s·E"_s : concat ? u"[s·E | PE]"_s : u"s·E + PE"_s;
    const bool dropping = params.training && params.dropout > 0.0;
    // masked-fill zeroes the padding rows (past seq_len) in training and in evaluation alike.
    const bool maskedFill = params.dropoutMode == DropoutMode::MaskedFill && params.sequenceLength() < params.maxLen;
    switch (quantity) {
    case Quantity::Input:
        return u"X = "_s + x;
    case Quantity::Output:
        if (maskedFill)
            return dropping ? u"Y = dropout(X, padding rows zeroed)"_s : u"Y = X, padding rows zeroed"_s;
        if (!dropping)
            return u"Y = X"_s;
        switch (params.dropoutMode) {
        case DropoutMode::Embedding:
            return concat ? u"Y = [dropout(s·E) | PE]"_s : u"Y = dropout(s·E) + PE"_s;
        case DropoutMode::ProtectSpecial:
            return u"Y = dropout(X), special rows kept"_s;
        default:
            return u"Y = dropout(X)"_s;
        }
    case Quantity::Mask:
        return u"mask (1 kept, 0 dropped)"_s;
    default:
        return quantityLabel(quantity);
    }
}

QString tableText(const Params &params)
{
    return u"d = %1, L = %2"_s.arg(formatCount(params.dModel), formatCount(params.maxLen));
}

QString scaleText(const Params &params)
{
    switch (params.scaleKind) {
    case ScaleKind::Sqrt:
        return u"s = √d = %1"_s.arg(NumberText::compact(params.scale()));
    case ScaleKind::One:
        return u"s = 1"_s;
    case ScaleKind::Custom:
        break;
    }
    return u"s = %1"_s.arg(NumberText::compact(params.scale()));
}

QString sigmaText(const Params &params)
{
    if (params.embeddings)
        return u"E from %1"_s.arg(params.embeddings->source);
    switch (params.init) {
    case InitKind::ScaledNormal:
        return u"σ = d^-1/2 = %1"_s.arg(NumberText::compact(params.sigma()));
    case InitKind::KerasUniform:
        return u"E ~ U(±0.05), σ = %1"_s.arg(NumberText::compact(params.sigma()));
    case InitKind::Normal:
    case InitKind::Custom:
        break;
    }
    return u"σ = %1"_s.arg(NumberText::compact(params.sigma()));
}

QString dropoutText(const Params &params)
{
    if (!params.training)
        return u"evaluation: no dropout"_s;
    return u"p = %1, dropout mode %2"_s.arg(NumberText::compact(params.dropout),
                                            ParamText::toString(params.dropoutMode));
}

QString peVariantText(const Params &params)
{
    QStringList parts;
    if (params.sinusoidal.layout == Layout::Split)
        parts.append(u"split layout"_s);
    if (params.sinusoidal.base != 10000.0)
        parts.append(u"b = %1"_s.arg(NumberText::compact(params.sinusoidal.base, 6)));
    if (params.sinusoidal.angles == Angles::Float32)
        parts.append(u"float32 angles"_s);
    return parts.join(u", "_s);
}

QString columnsText(std::int64_t first, std::int64_t end)
{
    if (end - first == 1)
        return QString::number(first);
    return u"%1–%2"_s.arg(first).arg(end - 1);
}

QString composeText(const Params &params)
{
    if (!params.concatenates())
        return {};
    const std::int64_t e = params.embeddingColumns();
    const std::int64_t k = params.peColumns();
    QStringList parts;
    if (e > 0)
        parts.append(u"s·E in columns %1"_s.arg(columnsText(0, e)));
    if (k > 0)
        parts.append(u"PE (k = %1) in %2"_s.arg(k).arg(columnsText(e, params.dModel)));
    return parts.join(u", "_s);
}

QString parametersText(Quantity quantity, const Params &params)
{
    const QString length = u"L = %1"_s.arg(formatCount(params.maxLen));
    const bool concat = params.concatenates();
    const std::int64_t k = params.peColumns();
    QStringList parts;
    switch (quantity) {
    case Quantity::Pe:
    case Quantity::Error:
    case Quantity::Similarity:
        // The PE that enters X: k columns in concat, which X holds at d - k .. d - 1.
        parts.append(concat ? u"k = %1 columns (X's %2), %3"_s.arg(k).arg(
                         columnsText(params.embeddingColumns(), params.dModel), length)
                            : tableText(params));
        if (const QString variant = peVariantText(params); !variant.isEmpty())
            parts.append(variant);
        break;
    case Quantity::Embedding:
        parts.append(concat ? u"d − k = %1 columns (X's %2), %3"_s.arg(params.embeddingColumns())
                                  .arg(columnsText(0, params.embeddingColumns()), length)
                            : tableText(params));
        parts.append(u"%1, %2"_s.arg(scaleText(params), sigmaText(params)));
        break;
    case Quantity::Input:
    case Quantity::Output:
    case Quantity::Mask:
        parts.append(tableText(params));
        if (quantity != Quantity::Mask) {
            if (concat)
                parts.append(composeText(params));
            parts.append(u"%1, %2"_s.arg(scaleText(params), sigmaText(params)));
            if (const QString variant = peVariantText(params); !variant.isEmpty())
                parts.append(variant);
        }
        if (quantity != Quantity::Input)
            parts.append(dropoutText(params));
        break;
    case Quantity::RopeFrequencies:
    case Quantity::RopeCos:
    case Quantity::RopeSin:
    case Quantity::RopeScore:
    case Quantity::RopeInput:
        parts.append(
            u"head_dim = %1, rope_type %2, θ = %3, %4"_s.arg(params.rope.headDim)
                .arg(ParamText::get(params, u"rope-type"_s), NumberText::compact(params.rope.theta, 6), length));
        if (quantity == Quantity::RopeInput)
            parts.append(u"%1, %2"_s.arg(scaleText(params), sigmaText(params)));
        break;
    case Quantity::AlibiSlopes:
        parts.append(params.alibi.heads == 1 ? u"H = 1 head"_s : u"H = %1 heads"_s.arg(params.alibi.heads));
        break;
    case Quantity::AlibiBias:
        parts.append(u"head %1 of %2, %3, %4"_s.arg(params.alibi.head)
                         .arg(params.alibi.heads)
                         .arg(ParamText::get(params, u"alibi"_s), length));
        break;
    case Quantity::T5Bucket:
        parts.append(u"%1 buckets, max distance %2, %3, %4"_s.arg(params.t5.buckets)
                         .arg(params.t5.maxDistance)
                         .arg(params.t5.causal ? u"causal"_s : u"bidirectional"_s, length));
        break;
    case Quantity::DebertaBucket:
        parts.append(u"%1 buckets, max position %2, %3"_s.arg(params.deberta.buckets)
                         .arg(params.deberta.maxPosition)
                         .arg(length));
        break;
    }
    return parts.join(u"  ·  "_s);
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
    return u"each pixel averages %1 and %2"_s.arg(count(perRow, u"position"_s, u"positions"_s),
                                                  count(perCol, u"column"_s, u"columns"_s));
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

} // namespace posenc::FigureText
