#pragma once

#include "check/ApplyHypothesis.h"
#include "check/ModelConfigCheck.h"
#include "check/TableHypothesis.h"
#include "check/TensorReading.h"
#include "core/Params.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

// A family's facet of posenc check (docs/ARCHITECTURE.md, Encoding families): how the check
// identifies its tables and rotations and reads the configs of models that place position by it.
// A family's manifest names it (POSENC_FAMILY_CHECK), src/check/<family>/ defines make<Name>Check(),
// and FamilyChecks makes every family's on first use; core's FamilySpec knows nothing of it.
namespace posenc {

struct ConfigContext;

// What a rotary layer turns, from its parameters (valid ones): the numbers the model figures and
// `posenc check --config` read of it (docs/ARCHITECTURE.md, Model knowledge).
struct RotaryNumbers
{
    // Each pair's inverse frequency after the scaling; 0 for a pair that turns at frequency 0.
    std::vector<double> inverseFrequencies;
    std::int64_t headDim = 0; // the head its parameters give (a config's MLA head is wider)
    std::int64_t rotaryDim = 0; // the columns that turn, from the head's first (or its tail's)
    bool interleaved = false; // pairs (2i, 2i + 1), else rotate_half's (j, j + rotaryDim / 2)
    // What an attention that takes the scaling's mscale multiplies its softmax scale by (yarn's
    // get_mscale(factor, mscale_all_dim)^2), 1 for the others.
    double softmaxScaleFactor = 1.0;
    double wavelengthMax = 0.0; // the slowest turning pair's 2 pi / inverse frequency
};

// A family whose layers turn each pair of a head's columns at a frequency of its own (RoPE's): what
// the model figures and the config check ask of a layer of a model config.
struct RotaryLayers
{
    std::function<RotaryNumbers(const Params &)> numbers;
    // Its words for a layer, which need the layer's head from its config (LayerScheme): "RoPE θ
    // 500,000, all 128 columns, half", and the layer stack's terse "RoPE 5e+05, 128/128".
    std::function<QString(const ConfigLayer &)> words;
    std::function<QString(const ConfigLayer &)> terse;
    // Rotary layers with equal keys share a colour in the layer stack, shaded by `theta`.
    std::function<QString(const Params &)> colourKey;
    std::function<double(const Params &)> theta;
};

struct FamilyCheck
{
    // How `posenc check` identifies its tables (Checking a table), if it has tables to check.
    std::optional<TableHypothesis> table;
    // How `posenc check --apply` checks its rotation of a query or key (Checking a rotation).
    std::optional<ApplyHypothesis> apply;

    // Its config reader (Checking a model config): the layer types of a model config whose model
    // places position by this family, read as the model's own code reads its keys; empty for a
    // family no config names. And the kinds of finding it reports, which `posenc check --help`
    // lists after the shared ones.
    std::function<QList<ConfigLayer>(ConfigContext &)> readConfig;
    // A config of another format than transformers' that the family reads whole (diffusers' model
    // configs: `_class_name` and no model_type), as ModelConfig::check's answer, which every command's
    // --config and --expect-config read; nothing where the config is not of that format.
    std::function<std::optional<ConfigCheck>(const QJsonObject &)> readOtherConfig;
    QList<ConfigFindings::Kind> configFindings;
    // Its words for what places position in one layer of a model (the layer-stack figure): "ALiBi,
    // 12 heads"; unset: its heading. And its name in the layer stack's terse labels ("NoPE"); empty:
    // its word.
    std::function<QString(const Params &)> layerWords;
    QString layerTerse;
    // Set for a family whose layers turn each pair of a head's columns at a frequency of its own.
    std::optional<RotaryLayers> rotary;
    // Its reading of a stack of per-head maps as its model returns them ([.., H, L, L], T5's
    // position_bias), `declared` the parameters when the stack was declared the family's; nothing
    // where the stack is not the family's; `form` the published form declared (--map-form), empty
    // for any. Unset: its stacks are read slice by slice as tables.
    std::function<std::optional<TableMatch>(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                            const Params *declared, const QString &form)>
        readStack;
    // The published forms its readStack names (DETR's and LoFTR's 2-D maps), which the registry of
    // published forms lists with its tables' (`posenc check --help`); their params are unused.
    QList<PublishedForm> stackForms;
    // Its reading of the other tensors engineers dump: vectors, per-head biases, paired tables.
    TensorReading tensors;
    // The table of its that `posenc bench` identifies at the widest head posenc writes (its fit's
    // cost must grow with the columns no faster than columns x log(columns)); empty: none is timed.
    QString wideBenchTable;

    // Its parameters set to give a table `cols` wide, for `posenc check --expect` when no flag gave
    // the width (d_model of a sinusoid, head_dim of a whole-head RoPE); unset: the width is fixed.
    std::function<void(Params &, std::int64_t cols)> fitTableWidth;
    // Its parameters set for a table of `rows` rows, one sequence of positions 0..rows-1, for
    // `posenc check --expect` and `--expect-config` when no --max-len gave the sequence's length:
    // where the length enters the formula (dynamic NTK's base grows with max(position_ids) + 1);
    // unset: the rows do not change the reference.
    std::function<void(Params &, std::int64_t rows)> fitTableRows;
    // Its parameters that describe a model's input rather than the model (M-RoPE's prompt), which
    // `posenc check --expect-config` takes from the flags over what the config gives.
    QStringList inputKeys;
    // Whether its tables' rows are at positions of one sequence, which `posenc check --positions A:B`
    // declares (a sinusoid's, RoPE's, a relative map's queries); false for a family whose tables and
    // maps are read by a grid's coordinates (the 2-D sin-cos table: --grid gives its grid).
    bool rowsAtPositions = true;

    // The facet of a family with a table, a config reader and its words for a config's layer.
    static FamilyCheck withConfig(TableHypothesis table, std::function<QList<ConfigLayer>(ConfigContext &)> readConfig,
                                  QList<ConfigFindings::Kind> findings,
                                  std::function<QString(const Params &)> layerWords);
};

namespace FamilyChecks {

// The check facet of `family` (an empty one for a family whose manifest names none).
const FamilyCheck &of(Encoding family);

} // namespace FamilyChecks

// The facets, defined in the families' folders of src/check.
#define POSENC_FAMILY_CHECK(Name) FamilyCheck make##Name##Check();
#include "core/FamilyList.h"
#undef POSENC_FAMILY_CHECK

} // namespace posenc
