#include "MropeReferenceParams.h"

#include "check/MaskFill.h"
#include "check/TableCheck.h"
#include "check/mrope/MropeIdsReadBack.h"
#include "check/mrope/MropeTableFit.h"
#include "check/mrope/MropeTableJudge.h"
#include "check/positions/MropeIdsStructure.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>

namespace posenc::MropeReferenceParams {

namespace {

// Every row of the table as a sample: rows 0 .. rows - 1.
std::optional<TableSample> everyRow(const TableRows &table)
{
    TableSample s;
    s.tableRows = table.rows();
    s.leadingRows = table.rows();
    s.values = RowMatrixXf(table.rows(), table.cols());
    QString error;
    if (!table.read(0, table.rows(), s.values.data(), error))
        return std::nullopt;
    for (std::int64_t r = 0; r < table.rows(); ++r)
        s.rows.push_back(r);
    return s;
}

} // namespace

std::optional<Params> read(const TableRows &reference, const TableMatch &reading)
{
    if (reference.rows() < 2 || reference.rows() > kMostRows || !reading.family)
        return std::nullopt;
    QString error;
    const auto sample = readSample(reference, TableCheck::kSampleCells, error);
    const auto all = everyRow(reference);
    if (!sample || !all)
        return std::nullopt;
    const TableCheck::Declared none;
    const RowFraming framing;
    const ValueFormat format = MaskFill::valuesFormat(all->values.data(), all->values.size());
    const auto split = MropeTableFit::read({reference, *sample, framing, format, none});
    if (!split)
        return std::nullopt;
    const TableEvidence every {reference, *all, framing, format, none};
    const auto rows = MropeTableFit::readAt(every, split->theta, split->section, split->interleaved);
    if (!rows || rows->cosine != split->cosine)
        return std::nullopt;
    // The ids must give every row, as the reference is the table of its ids.
    const MropeSampledReference at(rows->turns, rows->cosine, rows->rows, rows->ids);
    const MropeTableJudge::Judged judged = MropeTableJudge::judge(at, every, rows->turns);
    if (judged.bad() != 0)
        return std::nullopt;
    // A row read with axes apart that one id gives as well (a text row whose w pairs turn too slowly
    // at float32 to tell its id from one off) is that id's.
    RowMatrixXf ids(3, reference.rows());
    for (std::size_t i = 0; i < rows->ids.size(); ++i) {
        MropeIds id = rows->ids[i];
        const MropeIds text {MropeTokenKind::Text, id.t, id.t, id.t};
        if ((id.h != id.t || id.w != id.t)
            && MropeIdsReadBack::idsFit(every, rows->turns, rows->cosine, rows->rows[i], text, judged.float32))
            id = text;
        ids(0, std::int64_t(i)) = float(id.t);
        ids(1, std::int64_t(i)) = float(id.h);
        ids(2, std::int64_t(i)) = float(id.w);
    }
    // A video whose t steps by other than 1 is Qwen2.5-VL's time, at its tokens_per_second 2.
    Params p;
    p.encoding = Encoding::Mrope;
    auto prompt = MropeIdsStructure::promptOf(ids, p.mrope.spatialMergeSize);
    if (!prompt.problem.isEmpty()) {
        prompt = MropeIdsStructure::promptOf(ids, p.mrope.spatialMergeSize, p.mrope.tokensPerSecond);
        p.mrope.vision = MropeVision::Qwen25Vl;
    }
    if (!prompt.problem.isEmpty() || prompt.leftPadding > 0)
        return std::nullopt;
    RopeFrequencies::setHeadDim(p, reference.cols());
    p.dModel = std::max(p.dModel, reference.cols());
    p.maxLen = std::max(p.maxLen, reference.rows());
    p.rope.theta = split->theta;
    p.rope.layout = split->turns.half ? RopeLayout::Half : RopeLayout::Interleaved;
    p.mrope.section = split->section;
    p.mrope.interleaved = split->interleaved;
    p.mrope.prompt = prompt.prompt;
    p.mrope.era = prompt.v5 ? MropeEra::V5 : MropeEra::V4;
    if (!p.isValid())
        return std::nullopt;
    return p;
}

} // namespace posenc::MropeReferenceParams
