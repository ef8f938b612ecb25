#include "ConfigFindings.h"

#include "check/models/ModelFindings.h"
#include "check/FamilyCheck.h"
#include "core/FamilySpec.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc::ConfigFindings {

namespace {

// What the check says of a config whatever its families: its model type and its layers' list.
QList<Kind> sharedKinds()
{
    return {
        {u"layer-types-length"_s, Severity::Error,
         u"layer_types or no_rope_layers does not list num_hidden_layers layers"_s},
        {u"implicit-default"_s, Severity::Warning, u"a key the position encoding reads is absent: HF's default"_s},
        {u"top-level-rope-keys-ignored"_s, Severity::Warning,
         u"RoPE keys at the top level of a config whose text model reads text_config"_s},
        {u"model-type-missing"_s, Severity::Warning, u"no model_type: the family is recognised by its keys"_s},
    };
}

} // namespace

const QList<Kind> &catalogue()
{
    // The shared kinds and each family's (FamilySpec::configFindings), errors first, then
    // warnings, then notes, each severity in the list's order.
    static const QList<Kind> kinds = [] {
        QList<Kind> all = sharedKinds() + ModelFindings::kinds();
        for (const FamilySpec &family : Families::all())
            all += FamilyChecks::of(family.encoding).configFindings;
        std::stable_sort(all.begin(), all.end(),
                         [](const Kind &a, const Kind &b) { return int(a.severity) < int(b.severity); });
        return all;
    }();
    return kinds;
}

QString severityWord(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return u"error"_s;
    case Severity::Warning:
        return u"warning"_s;
    case Severity::Note:
        return u"note"_s;
    }
    return u"note"_s;
}

ConfigFinding make(const QString &id, const QString &message, const QString &layerType)
{
    const QList<Kind> &kinds = catalogue();
    const auto kind = std::find_if(kinds.cbegin(), kinds.cend(), [&](const Kind &k) { return k.id == id; });
    Q_ASSERT(kind != kinds.cend());
    return ConfigFinding {id, kind != kinds.cend() ? kind->severity : Severity::Error, message, layerType};
}

} // namespace posenc::ConfigFindings
