#include "MropeAxesModel.h"

#include "core/ParamText.h"
#include "core/mrope/MropeRotation.h"

#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc {

MropeAxesData MropeAxesModel::compute(const Engine &engine)
{
    const Params &params = engine.params();
    const MropeRotation &rotation = engine.source<MropeRotation>();
    MropeAxesData data;
    const std::vector<double> &inv = rotation.inverseFrequencies();
    for (const double f : inv)
        data.wavelengths.append(f > 0.0 ? 2.0 * std::numbers::pi / f : INFINITY);
    const std::int64_t pairs = rotation.pairs();
    const auto turn = [&](const std::vector<int> &axes, std::int64_t &fastest, double &angle) {
        fastest = MropeAxes::fastestPair(axes, 2);
        angle = fastest >= 0 ? MropeAxesData::kOffset * inv[std::size_t(fastest)] : 0.0;
    };
    MropeParams split = params.mrope;
    split.interleaved = false;
    if (!MropeAxes::sectionProblem(split, pairs)) {
        const std::vector<int> axes = MropeAxes::axes(split, pairs);
        data.chunked = QList<int>(axes.begin(), axes.end());
        turn(axes, data.chunkedFastestW, data.chunkedTurn);
    }
    split.interleaved = true;
    const std::vector<int> axes = MropeAxes::axes(split, pairs);
    data.interleaved = QList<int>(axes.begin(), axes.end());
    turn(axes, data.interleavedFastestW, data.interleavedTurn);
    data.interleavedChosen = params.mrope.interleaved;
    data.section = ParamText::get(params, u"mrope-section"_s);
    data.theta = params.rope.theta;
    data.headDim = params.rope.headDim;
    return data;
}

QString MropeAxesModel::name() const
{
    return u"mrope-axes"_s;
}

QString MropeAxesModel::title() const
{
    return u"M-RoPE axes"_s;
}

QString MropeAxesModel::summary() const
{
    return u"which axis (t, h, w) owns each rotary pair against its wavelength, chunked and interleaved side by "
           "side"_s;
}

QList<Quantity> MropeAxesModel::inputs(const FigureState &) const
{
    return {Quantity::MropeAxes};
}

std::optional<TableRequest> MropeAxesModel::table(const Params &params, const FigureState &) const
{
    return TableRequest {
        TableRequest::Cells, Quantity::MropeAxes, {0, Quantities::shape(Quantity::MropeAxes, params).rows, 0, 3}, {}};
}

FigureResult MropeAxesModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    return {std::make_shared<const MropeAxesData>(compute(*request.engine)), std::nullopt};
}

} // namespace posenc
