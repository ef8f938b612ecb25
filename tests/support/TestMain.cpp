// The main of every test executable (tests/support/TestMain.h): runs the test its own name gives.
#include "support/TestMain.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

namespace {

// The tests linked into this executable, by name: the file's name without its folder and suffix.
std::map<std::string, testing::TestRun> &registry()
{
    static std::map<std::string, testing::TestRun> tests;
    return tests;
}

// A path's last part without its suffix: /a/b/tst_cli.cpp and ./tst_cli both give tst_cli.
std::string stem(const char *path)
{
    std::string name(path);
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.find('.'); dot != std::string::npos && dot > 0)
        name.erase(dot);
    return name;
}

} // namespace

bool testing::registerTest(const char *file, TestRun run)
{
    registry().emplace(stem(file), run);
    return true;
}

int main(int argc, char *argv[])
{
    const std::string name = stem(argc > 0 ? argv[0] : "");
    const auto found = registry().find(name);
    if (found != registry().end())
        return found->second(argc, argv);
    std::fprintf(stderr, "%s: this executable runs the test its name gives, and holds", argc > 0 ? argv[0] : "test");
    for (const auto &[test, run] : registry())
        std::fprintf(stderr, " %s", test.c_str());
    std::fprintf(stderr, "\n");
    return 2;
}
