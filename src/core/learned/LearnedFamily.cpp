// The learned family (docs/ARCHITECTURE.md, Encoding families): a trained position table read
// from a file, position p its row p + offset.
#include "check/learned/LearnedTableCheck.h"
#include "core/FamilySpec.h"

#include "check/learned/LearnedConfig.h"
#include "core/learned/LearnedParamRows.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilySpec makeLearnedFamily()
{
    FamilySpec family;
    family.word = u"learned"_s;
    family.kind = FamilyKind::Term;
    family.help = u"a learned table read from a file"_s;
    family.formula = u"row p + offset of a trained table read from a file (GPT-2, BERT, RoBERTa)"_s;
    family.heading = u"Learned position table"_s;
    family.rows = LearnedParamRows::rows;
    family.positionTerm = [](const Params &params, std::int64_t) {
        PositionTermParts parts;
        if (params.learned.table) {
            parts.matrix = &params.learned.table->values;
            parts.owner = params.learned.table;
        }
        parts.rowOffset = params.learned.offset;
        return parts;
    };
    family.tableKey = u"position-table"_s;
    family.tableName = u"position table"_s;
    family.tableColumns = [](const Params &params) -> std::optional<std::int64_t> {
        if (!params.learned.table)
            return std::nullopt;
        return params.learned.table->values.cols();
    };
    family.defaultFigures = {{u"learned"_s, {}}, {u"heatmap"_s, {}}, {u"magnitudes"_s, {}}, {u"dropout"_s, {}}};
    family.readConfig = LearnedConfig::layers;
    family.configFindings = LearnedConfig::findings();
    family.tableHypothesis = LearnedTableCheck::hypothesis();
    family.layerWords = [](const Params &) { return u"a learned table added to the input"_s; };
    return family;
}

} // namespace posenc
