#include "TitleText.h"

#include "NumberText.h"
#include "ParamText.h"

using namespace Qt::StringLiterals;

namespace posenc::TitleText {

QString tableText(const Params &params)
{
    return u"d = %1, L = %2"_s.arg(NumberText::count(params.dModel), NumberText::count(params.maxLen));
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
    if (params.sinusoidal.flipSinToCos)
        parts.append(u"cos first"_s);
    if (params.sinusoidal.base != 10000.0)
        parts.append(u"b = %1"_s.arg(NumberText::compact(params.sinusoidal.base, 6)));
    if (params.sinusoidal.freqShift != 0.0)
        parts.append(u"shift %1"_s.arg(NumberText::compact(params.sinusoidal.freqShift, 6)));
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

QStringList positionTermParts(const Params &params)
{
    const QString length = u"L = %1"_s.arg(NumberText::count(params.maxLen));
    QStringList parts {params.concatenates() ? u"k = %1 columns (X's %2), %3"_s.arg(params.peColumns())
                                                   .arg(columnsText(params.embeddingColumns(), params.dModel), length)
                                             : tableText(params)};
    if (const QString variant = peVariantText(params); !variant.isEmpty())
        parts.append(variant);
    return parts;
}

} // namespace posenc::TitleText
