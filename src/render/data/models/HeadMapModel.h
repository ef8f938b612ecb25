#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

#include <vector>

namespace posenc {

struct ConfigCheck;

// The head-map figure's data: for each rotary layer type drawn, the columns of one attention head
// and what each does: turns, with the wavelength 2π/θᵢ of its pair; turns at frequency 0
// (proportional's tail); or passes unrotated (partial rotary's rest, MLA's nope part).
struct HeadMapData : FigureData
{
    struct Row
    {
        QString label; // "Gemma 4 31B, full_attention: proportional, 128 of 512"
        QString terse;
        QString tick; // the row's name beside it: the model, or the layer type of one config
        // One value a column: the wavelength of the pair it belongs to where it turns, +inf where it
        // turns at frequency 0, NaN where it passes unrotated.
        std::vector<double> wavelengths;
    };
    QList<Row> rows; // top to bottom
    std::int64_t widest = 0; // the widest head's columns
    double shortest = 0.0; // the wavelengths' range
    double longest = 0.0;
    QString source; // the config drawn, or empty for the examples
};

// "Head map": which columns of a head rotate and at what frequency, in prefix partial rotary
// (GLM-4.5), proportional RoPE with its zero-frequency tail (Gemma 4's full layers) and MLA's
// decoupled tail (DeepSeek-V3), beside a whole head (Llama 4 Scout); or a config's layer types.
class HeadMapModel final : public FigureModel
{
public:
    static HeadMapData examples();
    static HeadMapData ofConfig(const QString &name, const ConfigCheck &check);

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
