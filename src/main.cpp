// The cantonlite executable: see cantonlite::app::run.
#include <string>
#include <vector>

#include "cantonlite/app/application.hpp"

int main(int argc, char** argv) {
    return cantonlite::app::run(std::vector<std::string>(argv + 1, argv + argc));
}
