#pragma once

#include "FamilyPanel.h"
#include "FigureModel.h"

#include "core/FamilySpec.h"

#include <QList>
#include <QString>

#include <optional>

namespace posenc {

// The families figure's data: for one query and the current settings of every family, how the
// positional term of a key varies with its offset k = j - q, on one offset axis: the panel of each
// family that has one (FamilySpec::panel), in the order of FamilyList.h.
struct FamiliesData : FigureData
{
    std::int64_t query = 0;
    std::int64_t maxLen = 0;
    Encoding chosen = {}; // the parameters' encoding, whose panel is marked
    std::int64_t sampled = 0; // offsets taken a pixel where the oscillating sums were sampled; 0: all
    bool preview = false; // a quick sample before the full detail
    QList<FamilyPanelData> panels;
    // A causal model's sliding window (BatchParams::window): every panel masks the keys this many
    // positions or more before the query too, offsets k <= -window; unset: none.
    std::optional<std::int64_t> window;

    // The panel of `family`, or nullptr where it has none.
    const FamilyPanelData *panel(Encoding family) const;
};

// "One query, N families": for one query position (--query) and the current settings, the
// positional term each family gives a key against its offset k = j - q, stacked panels over one
// offset axis, one per family that has a panel (the sinusoid's PE·PE, RoPE's score of an aligned
// query and key, the biases per head of ALiBi, Sandwich and KERPLE, T5's and DeBERTa's bucket
// index, which stands for T5's learned bias per bucket and for the row of DeBERTa's learned
// relative embedding its c2p and p2c terms read). Applies to every family; the chosen one's panel is marked. Its view:
// "offsets".
class FamiliesModel final : public FigureModel
{
public:
    static constexpr char16_t kQuery[] = u"query";
    static constexpr char16_t kOffsetsAxis[] = u"offsets";
    // The families whose panels a page short of room keeps beside the chosen one's (--keep).
    static constexpr char16_t kKeep[] = u"keep";

    // The query of `state`, or its default: the middle position, whose keys lie on both sides.
    static std::int64_t query(const Params &params, const FigureState &state);
    static std::int64_t defaultQuery(const Params &params);
    // The data over offsets [lower, upper] of an axis `pixels` wide, the oscillating sums within
    // `budget` evaluations (FamilyCurves); nothing when cancelled.
    // A panel whose inputs did not change since its last computation for the budget, query and
    // offsets is taken as it was (panelsComputed counts those computed anew).
    static std::optional<FamiliesData> compute(const Params &params, std::int64_t query, double lower, double upper,
                                               int pixels, const std::atomic<bool> *cancel,
                                               std::int64_t budget = FamilyCurves::kMaxEvaluations);
    static quint64 panelsComputed();
    // The parameters the panels are computed and read at: the model's mask (BatchLayout::
    // attendsBothWays: its preset's or config's attention, or its family's own mask) as
    // params.batch.attention, and each family's own mask set to it (FamilyPanel::followMask), so
    // that an encoder's panels mask no key after the query and a decoder's mask them all. A model
    // posenc cannot tell to be an encoder is taken as causal, as params.batch.attention defaults.
    static Params panelParams(const Params &params);
    // The families `state` names to keep (--keep, encoding words), those with a panel, and the
    // first word that names none (empty when every word does): read once, by the figure and by
    // checkOptions.
    struct KeepWords
    {
        QList<Encoding> families;
        QString refused;
    };
    static KeepWords keepWords(const FigureState &state);
    // The families that have a panel, in the list's order: the figure's panels.
    static QList<const FamilySpec *> panelFamilies();
    // A count in words up to twelve ("seven"), in digits past it.
    static QString countWord(qsizetype n);
    // "seven": the panels' count in words, for the title.
    static QString panelCount();

    QString name() const override;
    QString title() const override;
    QString summary() const override;
    QList<FigureOption> ownOptions() const override;
    QString defaultText(const QString &key, const Params &params) const override;
    QList<Quantity> inputs(const FigureState &state) const override;
    // The panels' inputs, and the model's mask laid on every panel: its attention and sliding window.
    QStringList reads(const FigureState &state) const override;
    // A quick sample of the oscillating sums first where every offset takes long.
    bool hasPreview(const FigureRequest &request) const override;

    // Computed for its first panel's columns of pixels alone (FigureModel::extentsRead).
    QList<PanelExtent> extentsRead(const QList<PanelExtent> &panels) const override
    {
        return firstPanelColumns(panels);
    }

protected:
    QList<ParamError> checkOptions(const Params &params, const FigureState &state) const override;
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &cancel) const override;
};

} // namespace posenc
