// The one way a blockwise-cli command turns a failure into its exit status: the error as one line on
// standard error ("error: FILE: JSON path: reason", as data::LoadError prints it) and exit status 2 —
// for a file that does not load (LoadError), one that cannot be written (SaveError) or anything else
// the engine or the loaders throw, named against `file`.
#pragma once

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "data/atomic_write.h"
#include "data/load_error.h"

namespace bw::cli {

template <class F>
void OrExit2(const std::string& file, F&& body) {
  try {
    body();
  } catch (const data::LoadError& e) {
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  } catch (const data::SaveError& e) {
    std::cerr << "error: " << e.what() << "\n";
    throw CLI::RuntimeError(2);
  } catch (const CLI::RuntimeError&) {
    throw;
  } catch (const std::exception& e) {
    std::cerr << "error: " << data::LoadError(file, "", e.what()).what() << "\n";
    throw CLI::RuntimeError(2);
  }
}

}  // namespace bw::cli
