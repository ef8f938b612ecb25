#pragma once

#include "CommandOption.h"
#include "HelpPage.h"

#include "core/FamilyInference.h"
#include "core/ParamOverlay.h"
#include "core/Params.h"
#include "io/SessionFile.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace posenc {
struct ConfigLayer;
}

namespace posenc::ParamOptions {

// One option per parameter, named after its ParamText key (--embeddings FILE[:TENSOR] and
// --tokens LIST among them), then --session FILE, --preset NAME and --config FILE [--layer-type T].
QList<CommandOption> options();
void add(QCommandLineParser &parser);

// Parameter texts by key (Session::parameterKeys()), as given on the command line or saved in a
// session file.
using Given = ParamTexts;

// Params from the defaults and the options given (the matrix of --embeddings loaded), with
// every problem and the exit code it calls for.
struct Result
{
    Params params;
    QList<ParamError> errors; // syntax and range: exit 2
    QString usage; // options that cannot go together: exit 2
    QString origin; // the --session file, the lesson or the preset, named in the messages of the values it gave
    QStringList fromOrigin; // keys whose values came from it
    QString fileError; // --embeddings could not be read: exit 3, path and reason
    QString overBudget; // --embeddings asks for more than the memory budget: exit 4
    std::optional<Session> session; // the --session file read, for its view state
    // --config's layer type, read and checked, where it gave the parameters: its layers and
    // scheme (`posenc describe --config` prints them).
    std::shared_ptr<const ConfigLayer> configLayer;

    int exitCode() const;
    // One line per problem, each naming its parameter or path.
    QStringList messages() const;
};
// What a command gives besides the parameters that only some families have (its FIGURE, its
// QUANTITY): where no encoding is given, these and the family parameters given choose it.
using Clues = QList<FamilyInference::Clue>;
// What a command knows of the parameters besides what was given (a table's width): laid over the
// parameters read before they are checked, `given` holding the keys the flags, the preset, the
// session or the config gave, which it leaves as they are.
using Fit = std::function<void(Params &params, const Given &given)>;

// The parameters of --session FILE, --preset NAME or --config FILE if given, overridden by every
// parameter flag given. `configGivesParams` false leaves --config to a figure that draws the config
// itself (layer-stack): the parameters are then the defaults and the flags.
Result read(const QCommandLineParser &parser, const Clues &clues = {}, bool configGivesParams = true,
            const Fit &fit = {});
// The parameters of `base` (a session's, a lesson's or a preset's), every parameter flag given
// overriding them whatever their order; the messages about the values `base` gave name `origin`.
// How a session, a lesson and a preset all reach the command line.
Result read(const QCommandLineParser &parser, const Given &base, const QString &origin, const Clues &clues = {},
            const Fit &fit = {});
// The parameters of `given` over the defaults. Where `given` names no encoding, the family is the
// one that every family parameter given and every clue fits (docs/ARCHITECTURE.md, Command line,
// "A family inferred"); none or several is a usage error naming them.
Result read(const Given &given, const Clues &clues = {}, const Fit &fit = {});

// `error` as the command line words it: "--d-model: must be an integer in [1, 1048576]; got 0".
QString flagText(const ParamError &error);

// posenc help parameters: the parameters by group, each family's under its --encoding.
HelpPage helpPage();

} // namespace posenc::ParamOptions
