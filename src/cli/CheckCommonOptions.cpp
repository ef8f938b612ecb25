#include "CheckCommonOptions.h"

#include "core/ParamError.h"

using namespace Qt::StringLiterals;

namespace posenc::CheckCommonOptions {

QList<CommandOption> options()
{
    return {{{u"threads"_s}, u"N"_s, u"worker threads (default: all cores)"_s},
            {{u"quiet"_s}, {}, u"no progress line (shown on a terminal for work over a second)"_s}};
}

std::variant<int, QString> threads(const QCommandLineParser &parser)
{
    if (!parser.isSet(u"threads"_s))
        return 0;
    bool ok = false;
    const int n = parser.value(u"threads"_s).toInt(&ok);
    if (!ok || n < 1 || n > 1024)
        return u"--threads: must be an integer in [1, 1024]; got %1"_s.arg(
            ParamError::quoted(parser.value(u"threads"_s)));
    return n;
}

} // namespace posenc::CheckCommonOptions
