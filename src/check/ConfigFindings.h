#pragma once

#include <QList>
#include <QString>

// What `posenc check --config` says of a model config besides its numbers (docs/ARCHITECTURE.md,
// Checking a model config): each finding has a stable id, a severity and one line of why.
namespace posenc {

// error: the model computes something other than the config means, or than HF reads; warning:
// legacy keys and implicit defaults; note: right, but easy to get wrong.
enum class Severity { Error, Warning, Note };

struct ConfigFinding
{
    QString id; // kebab-case, one of ConfigFindings::catalogue()
    Severity severity = Severity::Note;
    QString message; // one line: what the config says and what follows
    QString layerType; // the layer type it concerns; empty for the config as a whole

    friend bool operator==(const ConfigFinding &, const ConfigFinding &) = default;
};

namespace ConfigFindings {

// An id, its severity, and what it means in a line (for --help, the README and the man page).
struct Kind
{
    QString id;
    Severity severity;
    QString meaning;
};

// Every id, errors first, then warnings, then notes.
const QList<Kind> &catalogue();
// "error", "warning" or "note".
QString severityWord(Severity severity);
// The finding `id` (which must be in the catalogue) with its catalogued severity.
ConfigFinding make(const QString &id, const QString &message, const QString &layerType = QString());

} // namespace ConfigFindings

} // namespace posenc
