#include "Params.h"

#include "FamilySpec.h"
#include "ParamTable.h"

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
    case InitKind::KerasUniform:
        return kKerasUniformLimit / std::sqrt(3.0);
    }
    return 1.0;
}

CellLaw Params::cellLaw() const
{
    return init == InitKind::KerasUniform ? CellLaw::Uniform : CellLaw::Normal;
}

bool Params::concatenates() const
{
    return compose == Compose::Concat && hasPositionTerm();
}

bool Params::hasPositionTerm() const
{
    return Families::spec(encoding).hasPositionTerm();
}

std::int64_t Params::peColumns() const
{
    if (!hasPositionTerm())
        return 0;
    return compose == Compose::Concat ? peDims.value_or(dModel / 2) : dModel;
}

std::int64_t Params::embeddingColumns() const
{
    return concatenates() ? dModel - peColumns() : dModel;
}

std::pair<std::int64_t, std::int64_t> Params::droppableColumns() const
{
    if (concatenates() && dropoutMode == DropoutMode::Embedding)
        return {0, embeddingColumns()};
    if (concatenates() && dropoutMode == DropoutMode::Positional)
        return {embeddingColumns(), dModel};
    return {0, dModel};
}

std::pair<std::int64_t, std::int64_t> Params::droppableColumnsIn(std::int64_t col0, std::int64_t cols) const
{
    const auto [first, end] = droppableColumns();
    const std::int64_t from = std::clamp(first - col0, std::int64_t(0), cols);
    return {from, std::clamp(end - col0, from, cols)};
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

QList<ParamError> Params::validate() const
{
    QList<ParamError> errors;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (auto error = row.check(*this))
            errors.append(*error);
    }
    return errors;
}

} // namespace posenc
