// The none family (NoPE, docs/ARCHITECTURE.md, Encoding families): no position term, X = s·E.
#include "core/FamilySpec.h"
#include "core/none/NoneLessonNumbers.h"

using namespace Qt::StringLiterals;

namespace posenc {

FamilySpec makeNoneFamily()
{
    FamilySpec family;
    family.word = u"none"_s;
    family.kind = FamilyKind::Term;
    family.help = u"none (NoPE)"_s;
    family.formula = u"no position term, X = s·E (NoPE)"_s;
    family.rows = [] { return QList<ParamSpec>(); };
    // X is s·E alone: its heatmap first.
    family.defaultFigures = {{u"heatmap"_s, {{u"quantity"_s, u"input"_s}}},
                             {u"magnitudes"_s, {}},
                             {u"dropout"_s, {}},
                             {u"dropout-anatomy"_s, {}}};
    family.lessonNumbers = NoneLessonNumbers::entries;
    return family;
}

} // namespace posenc
