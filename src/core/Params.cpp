#include "Params.h"

#include <QLocale>
#include <QSet>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

double Params::scale() const
{
    switch (scaleKind) {
    case ScaleKind::One:
        return 1.0;
    case ScaleKind::Sqrt:
        return std::sqrt(static_cast<double>(dModel));
    case ScaleKind::Custom:
        return customScale;
    }
    return 1.0;
}

double Params::sigma() const
{
    switch (init) {
    case InitKind::Normal:
        return 1.0;
    case InitKind::ScaledNormal:
        return 1.0 / std::sqrt(static_cast<double>(dModel));
    case InitKind::Custom:
        return customSigma;
    }
    return 1.0;
}

std::int64_t Params::peColumns() const
{
    return compose == Compose::Concat ? peDims.value_or(dModel / 2) : dModel;
}

std::int64_t Params::embeddingColumns() const
{
    return compose == Compose::Concat ? dModel - peColumns() : dModel;
}

std::int64_t Params::droppableColumns() const
{
    return compose == Compose::Concat && dropoutMode == DropoutMode::Embedding ? embeddingColumns() : dModel;
}

std::int64_t Params::sequenceLength() const
{
    return seqLen.value_or(maxLen);
}

std::vector<std::int64_t> Params::specialRows() const
{
    std::vector<std::int64_t> rows;
    const std::int64_t n = sequenceLength();
    for (const std::int64_t s : special) {
        const std::int64_t row = s < 0 ? n + s : s;
        if (row >= 0 && row < n)
            rows.push_back(row);
    }
    // A set: 0 and -1 name one row in a sequence of one.
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

namespace {

QString number(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace

QList<ParamError> Params::validate() const
{
    QList<ParamError> errors;
    const auto outside = [&errors](const QString &key, const QString &allowed, const QString &given) {
        errors.append({key, allowed, QString(), given});
    };
    const auto wrong = [&errors](const QString &key, const QString &problem) {
        errors.append({key, QString(), problem, std::nullopt});
    };

    const bool dOk = dModel >= 1 && dModel <= kMaxDModel;
    if (!dOk)
        outside(u"d-model"_s, u"an integer in [1, %1]"_s.arg(kMaxDModel), QString::number(dModel));
    const bool lOk = maxLen >= 1 && maxLen <= kMaxLen;
    if (!lOk)
        outside(u"max-len"_s, u"an integer in [1, %1]"_s.arg(kMaxLen), QString::number(maxLen));
    if (!std::isfinite(base) || base <= 1.0)
        outside(u"base"_s, u"a finite number greater than 1"_s, number(base));
    if (scaleKind == ScaleKind::Custom && (!std::isfinite(customScale) || customScale < 0.0))
        outside(u"scale"_s, u"1, sqrt or a finite number >= 0"_s, number(customScale));
    if (init == InitKind::Custom && (!std::isfinite(customSigma) || customSigma < 0.0))
        outside(u"init"_s, u"normal, scaled-normal or a finite sigma >= 0"_s, number(customSigma));
    if (compose == Compose::Concat && peDims && dOk && (*peDims < 0 || *peDims > dModel))
        outside(u"pe-dims"_s, u"an integer in [0, %1] (d_model)"_s.arg(dModel), QString::number(*peDims));
    if (!(dropout >= 0.0 && dropout <= 1.0)) // also refuses NaN
        outside(u"dropout"_s, u"a probability in [0, 1]"_s, number(dropout));

    const std::int64_t n = sequenceLength();
    if (seqLen && lOk && (*seqLen < 1 || *seqLen > maxLen))
        outside(u"seq-len"_s, u"an integer in [1, %1] (max_len)"_s.arg(maxLen), QString::number(*seqLen));
    else if (lOk) {
        for (const std::int64_t s : special) {
            if (s < -n || s >= n) {
                outside(u"special"_s,
                        u"positions in [%1, %2] (negative counts from the end of the sequence of %3)"_s.arg(-n)
                            .arg(n - 1)
                            .arg(n),
                        QString::number(s));
                break;
            }
        }
    }

    if (embeddings && dOk && lOk) {
        const std::int64_t wantCols = embeddingColumns();
        const auto &m = embeddings->values;
        if (m.cols() != wantCols)
            wrong(u"embeddings"_s,
                  u"the matrix has %1 columns; the model needs %2 (d_model%3)"_s.arg(m.cols()).arg(wantCols).arg(
                      compose == Compose::Concat ? u" - pe_dims"_s : QString()));
        if (m.rows() < maxLen)
            wrong(u"embeddings"_s, u"the matrix has %1 rows; max_len needs at least %2"_s.arg(m.rows()).arg(maxLen));
    }
    if (memoryBudget == 0)
        outside(u"memory-budget"_s, u"greater than 0 GiB"_s, u"0"_s);
    return errors;
}

} // namespace posenc
