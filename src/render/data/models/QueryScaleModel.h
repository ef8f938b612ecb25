#pragma once

#include "render/data/FigureModel.h"

#include <QList>
#include <QString>

namespace posenc {

struct ConfigCheck;

// The query-scale figure's data: what multiplies a query's logits q·k at each position, model by
// model: a query scaling that grows with the position (Llama 4's temperature on its NoPE layers,
// Mistral 3's llama_4_scaling_beta), or yarn's factors, the same at every position (cos and sin
// times attention_factor, DeepSeek's softmax times get_mscale(f, mscale_all_dim)^2).
struct QueryScaleData : FigureData
{
    struct Curve
    {
        QString label;
        QString terse; // for a slide: "Llama 4 Scout NoPE layers: temperature, 8192"
        QList<double> positions; // step starts, from 1, and the last position drawn
        QList<double> values;
        bool constant = false; // yarn's factor: the same at every position
    };
    // A number a curve reaches, marked and labelled: Llama 4's 1.0693 from 8191.
    struct Mark
    {
        double position = 0.0;
        double value = 1.0;
        QString label;
    };
    QList<Curve> curves;
    QList<Mark> marks;
    double lastPosition = 1.0;
    QString source; // the config drawn, or empty for the examples
};

// "Query scale": the logit multiplier against the position on a log axis, for the examples
// (Llama 4 Scout, Ministral 3 at HF's default and Devstral Small 2's L0, DeepSeek-V3 and gpt-oss's
// yarn) or for one config's layer types.
class QueryScaleModel final : public FigureModel
{
public:
    static QueryScaleData examples();
    static QueryScaleData ofConfig(const QString &name, const ConfigCheck &check);

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<FigureOption> ownOptions() const override;
    QList<Quantity> inputs(const FigureState &state) const override;

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
