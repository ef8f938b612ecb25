#include "Params.h"

#include <QSet>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

QString ParamError::toString() const
{
    return u"--%1: %2"_s.arg(key, message);
}

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
    return rows;
}

namespace {

QString number(double value)
{
    return QString::number(value, 'g', 17);
}

} // namespace

QList<ParamError> Params::validate() const
{
    QList<ParamError> errors;
    const auto fail = [&errors](const QString &key, const QString &message) { errors.append({key, message}); };

    const bool dOk = dModel >= 1 && dModel <= kMaxDModel;
    if (!dOk)
        fail(u"d-model"_s, u"must be an integer in [1, %1]; got %2"_s.arg(kMaxDModel).arg(dModel));
    const bool lOk = maxLen >= 1 && maxLen <= kMaxLen;
    if (!lOk)
        fail(u"max-len"_s, u"must be an integer in [1, %1]; got %2"_s.arg(kMaxLen).arg(maxLen));
    if (!std::isfinite(base) || base <= 1.0)
        fail(u"base"_s, u"must be a finite number greater than 1; got %1"_s.arg(number(base)));
    if (scaleKind == ScaleKind::Custom && (!std::isfinite(customScale) || customScale < 0.0))
        fail(u"scale"_s, u"must be 1, sqrt or a finite number >= 0; got %1"_s.arg(number(customScale)));
    if (init == InitKind::Custom && (!std::isfinite(customSigma) || customSigma < 0.0))
        fail(u"init"_s, u"must be normal, scaled-normal or a finite sigma >= 0; got %1"_s.arg(number(customSigma)));
    if (compose == Compose::Concat && peDims && dOk && (*peDims < 0 || *peDims > dModel))
        fail(u"pe-dims"_s, u"must be an integer in [0, %1] (d_model); got %2"_s.arg(dModel).arg(*peDims));
    if (!(dropout >= 0.0 && dropout <= 1.0)) // also refuses NaN
        fail(u"dropout"_s, u"must be a probability in [0, 1]; got %1"_s.arg(number(dropout)));

    const std::int64_t n = sequenceLength();
    if (seqLen && lOk && (*seqLen < 1 || *seqLen > maxLen))
        fail(u"seq-len"_s, u"must be an integer in [1, %1] (max_len); got %2"_s.arg(maxLen).arg(*seqLen));
    else if (lOk) {
        for (const std::int64_t s : special) {
            if (s < -n || s >= n) {
                fail(u"special"_s,
                     u"positions must be in [%1, %2] (negative counts from the end of the sequence of %3); got %4"_s
                         .arg(-n)
                         .arg(n - 1)
                         .arg(n)
                         .arg(s));
                break;
            }
        }
    }

    if (embeddings && dOk && lOk) {
        const std::int64_t wantCols = embeddingColumns();
        const auto &m = embeddings->values;
        if (m.cols() != wantCols)
            fail(u"embeddings"_s,
                 u"the matrix has %1 columns; the model needs %2 (d_model%3)"_s.arg(m.cols()).arg(wantCols).arg(
                     compose == Compose::Concat ? u" - pe_dims"_s : QString()));
        if (m.rows() < maxLen)
            fail(u"embeddings"_s, u"the matrix has %1 rows; max_len needs at least %2"_s.arg(m.rows()).arg(maxLen));
    }
    if (memoryBudget == 0)
        fail(u"memory-budget"_s, u"must be greater than 0 GiB"_s);
    return errors;
}

} // namespace posenc
