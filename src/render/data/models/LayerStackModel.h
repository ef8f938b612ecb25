#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

#include <vector>

namespace posenc {

struct ConfigCheck;

// The layer-stack figure's data: a model config's layers, each with what places its position
// (RoPE and its theta, NoPE, a bias, a table, or a mixer that is not attention) and how far it
// attends (the whole context, a window, a chunk), grouped by layer type.
struct LayerStackData : FigureData
{
    struct Group
    {
        QString layerType;
        std::vector<std::int64_t> layers;
        // The keys that colour the two lanes: groups with equal keys share a colour. "rope:<theta>
        // <type>", "none", a family's word, "linear", "ssm", "conv", "mlp"; "full", "window",
        // "chunk", or the mixer again.
        QString positionKey;
        QString spanKey;
        double theta = 0.0; // RoPE's, for the order of its colours
        QString position; // "RoPE θ 1e6, linear ×8, 256 of 256, half"
        QString span; // "window 1024", "chunk 8192", "full context"
        // How far its span reaches in a few signs, for the span's key: "±64" (a window each side),
        // "1024", "8192" (a chunk); empty for the whole context or a mixer.
        QString spanReach;
        QString query; // the query scaling in words, or empty
        QString terse; // the whole in a few words, for a slide
    };
    QString model; // "Llama 4 Scout (llama4_text)"
    QString basis; // how the model's row was read: "hand", "port", "fingerprint", "guess"
    std::int64_t layerCount = 0;
    QList<Group> groups; // in the order of their first layer
    QString notes; // the config's notes that concern its layers, in a line or two
};

// "Layer stack": one row per layer of a real config, coloured by what places its position and by
// how far it attends, each layer type described with its rotary dim, scaling and query scaling.
class LayerStackModel final : public FigureModel
{
public:
    static constexpr char16_t kDefaultConfig[] = u"llama-4-scout";

    static LayerStackData compute(const QString &model, const QString &basis, const ConfigCheck &check);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    bool drawsColourMaps() const override { return true; }
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
