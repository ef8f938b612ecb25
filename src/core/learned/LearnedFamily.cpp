// The learned family (docs/ARCHITECTURE.md, Encoding families): a trained position table read
// from a file, position p its row p + offset.
#include "core/FamilySpec.h"

#include "core/NumberText.h"
#include "core/learned/LearnedParamRows.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

FamilySpec makeLearnedFamily()
{
    FamilySpec family = Families::fromWords(FamilyWords(u"Learned"_s), FamilyKind::Term);
    family.rows = LearnedParamRows::rows;
    FamilyTerm term;
    term.parts = [](const Params &params, std::int64_t) {
        PositionTermParts parts;
        if (params.learned.table) {
            parts.matrix = &params.learned.table->values;
            parts.owner = params.learned.table;
        }
        parts.rowOffset = params.learned.offset;
        return parts;
    };
    term.loadedColumns = [](const Params &params) -> std::optional<std::int64_t> {
        if (!params.learned.table)
            return std::nullopt;
        return params.learned.table->values.cols();
    };
    // GPT-2's wpe spans about ±4 and RoBERTa's a few tenths: the rows in use set the colours.
    term.largest = [](const Params &params) -> std::optional<double> {
        if (!params.learned.table)
            return std::nullopt;
        const RowMatrixXf &values = params.learned.table->values;
        const std::int64_t first = std::clamp<std::int64_t>(params.learned.offset, 0, values.rows());
        const std::int64_t rows = std::clamp<std::int64_t>(params.maxLen, 0, values.rows() - first);
        if (rows == 0 || values.cols() == 0)
            return std::nullopt;
        float largest = 0.0f;
        for (const float v : values.middleRows(first, rows).reshaped())
            if (std::isfinite(v))
                largest = std::max(largest, std::fabs(v));
        return largest > 0.0f ? std::optional<double>(largest) : std::nullopt;
    };
    // A cell is a trained number: the row of the table it comes from, no formula.
    term.cellWords = [](const Params &params, std::int64_t position, std::int64_t, float value) {
        return QStringList {u"PE = %1, row %2 of the position table"_s.arg(NumberText::compact(value, 6))
                                .arg(position + params.learned.offset)};
    };
    family.term = term;
    family.defaultFigures = {{u"learned"_s, {}}, {u"heatmap"_s, {}}, {u"magnitudes"_s, {}}, {u"dropout"_s, {}}};
    return family;
}

} // namespace posenc
