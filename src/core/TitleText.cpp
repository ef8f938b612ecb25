#include "TitleText.h"

#include "NumberText.h"
#include "ParamText.h"

#include <QRegularExpression>

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

QString specialToken(const Params &params, std::int64_t row)
{
    return row == 0 ? u"[CLS]"_s : row == params.sequenceLength() - 1 ? u"[SEP]"_s : u"[MASK]"_s;
}

QString specialTokensText(const Params &params)
{
    QStringList parts;
    for (const std::int64_t row : params.specialRows())
        parts.append(u"%1 at %2"_s.arg(specialToken(params, row), NumberText::count(row)));
    if (parts.size() < 2)
        return parts.join(QString());
    return parts.mid(0, parts.size() - 1).join(u", "_s) + u" and "_s + parts.back();
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

QString RowIndex::noun() const
{
    return timesteps ? u"timestep"_s : u"position"_s;
}

QString RowIndex::nouns() const
{
    return timesteps ? u"timesteps"_s : u"positions"_s;
}

QString RowIndex::symbol() const
{
    return timesteps ? u"t"_s : u"p"_s;
}

QString RowIndex::second() const
{
    return timesteps ? u"t′"_s : u"q"_s;
}

QString RowIndex::subscript() const
{
    return timesteps ? u"ₜ"_s : u"ₚ"_s;
}

QString RowIndex::axis() const
{
    return noun() + u' ' + symbol();
}

QString RowIndex::count(std::int64_t n) const
{
    return u"%1 %2"_s.arg(NumberText::count(n), n == 1 ? noun() : nouns());
}

QString RowIndex::named(const QString &text) const
{
    if (!timesteps)
        return text;
    // Whole words and symbols only: "p" of "dropout p" is never written here, nor "q" of "q·k".
    static const QRegularExpression words(u"\\b(positions?|p|q)\\b|ₚ"_s);
    QString out;
    qsizetype from = 0;
    for (auto match = words.globalMatch(text); match.hasNext();) {
        const QRegularExpressionMatch m = match.next();
        out += text.mid(from, m.capturedStart() - from);
        const QString w = m.captured();
        out += w == u"positions"_s ? nouns()
            : w == u"position"_s   ? noun()
            : w == u"p"_s          ? symbol()
            : w == u"q"_s          ? second()
                                   : subscript();
        from = m.capturedEnd();
    }
    return out + text.mid(from);
}

bool indexesTimesteps(const Params &params)
{
    const SinusoidalParams &s = params.sinusoidal;
    return params.encoding == Encoding::Sinusoidal
        && ((s.layout == Layout::Split && s.flipSinToCos) || s.timestepScale != 1.0);
}

RowIndex rowIndex(const Params &params)
{
    return RowIndex {indexesTimesteps(params)};
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
