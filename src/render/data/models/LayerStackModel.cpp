#include "LayerStackModel.h"

#include "ModelFigureOptions.h"
#include "ModelText.h"

#include "render/data/ViewOptions.h"

#include "check/FamilyCheck.h"
#include "check/ModelConfigCheck.h"
#include "core/FamilySpec.h"

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QString layerStackDefault()
{
    return QString::fromUtf16(LayerStackModel::kDefaultConfig);
}

} // namespace

LayerStackData LayerStackModel::compute(const QString &model, const QString &basis, const ConfigCheck &check)
{
    LayerStackData data;
    data.model = u"%1 (%2)"_s.arg(model, check.modelType);
    data.basis = basis;
    for (const ConfigLayer &layer : check.layers) {
        LayerStackData::Group g;
        g.layerType = layer.layerType;
        g.layers = layer.layers;
        for (const std::int64_t l : layer.layers)
            data.layerCount = std::max(data.layerCount, l + 1);
        const QString encoding = layer.scheme.encoding;
        g.positionKey = encoding;
        if (const std::optional<RotaryLayers> &rotary = FamilyChecks::of(layer.params.encoding).rotary) {
            g.theta = rotary->theta(layer.params);
            g.positionKey = rotary->colourKey(layer.params);
        }
        g.spanKey = layer.scheme.window    ? u"window"_s
            : layer.scheme.chunk           ? u"chunk"_s
            : ModelText::isMixer(encoding) ? encoding
                                           : u"full"_s;
        g.position = ModelText::position(layer);
        g.span = ModelText::span(layer);
        if (layer.scheme.window)
            g.spanReach = (layer.scheme.windowBothSides ? u"±%1"_s : u"%1"_s).arg(*layer.scheme.window);
        else if (layer.scheme.chunk)
            g.spanReach = QString::number(*layer.scheme.chunk);
        g.query = ModelText::query(layer.scheme);
        g.terse = ModelText::terse(layer);
        data.groups.append(g);
    }
    data.notes = ModelText::layerNotes(check);
    return data;
}

QString LayerStackModel::name() const
{
    return u"layer-stack"_s;
}

QString LayerStackModel::title() const
{
    return u"Layer stack"_s;
}

QString LayerStackModel::summary() const
{
    return u"a model config's layers, one row each, coloured by what places position (RoPE and its theta, NoPE, "
           "a mixer) and how far each attends (window, chunk), with rotary dim, scaling and query scaling"_s;
}

QList<FigureOption> LayerStackModel::ownOptions() const
{
    // Its own --colormap: the map's colours are categories the legend names, so a map chosen
    // colours the categories and the legend alike (LayerStackFigure::fill), where MapOptions
    // recoloured the cells and left the legend in the figure's own colours.
    FigureOption colormap = ViewOptions::colormap();
    colormap.help = u"colours of the layer kinds and spans: auto is the figure's own; a map gives them colours "
                    "evenly spaced along it, the key alike"_s;
    return {ModelFigureOptions::config(layerStackDefault()), colormap};
}

QList<Quantity> LayerStackModel::inputs(const FigureState &) const
{
    return {}; // the config's, not the parameters'
}

QList<ParamError> LayerStackModel::checkOptions(const Params &, const FigureState &state) const
{
    return ModelFigureOptions::check(state, layerStackDefault());
}

FigureResult LayerStackModel::computeData(const FigureRequest &request, const std::atomic<bool> &) const
{
    const auto loaded = ModelFigureOptions::load(request.state, layerStackDefault());
    if (!loaded)
        return {std::make_shared<const LayerStackData>(), std::nullopt};
    return {std::make_shared<const LayerStackData>(compute(loaded->name, loaded->check.basis, loaded->check)),
            std::nullopt};
}

} // namespace posenc
